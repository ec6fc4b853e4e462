import { decodeJwt } from 'jose';
import type { Runtime } from '../runtime/runtime.ts';
import { loadDataKeyring, type DataKeyring } from '../security/data-keyring.ts';
import { createStore } from '../stores/create-store.ts';
import { ownSchema } from '../stores/own-schema.ts';
import type { Store } from '../stores/types.ts';
import { ClientSecrets } from '../security/client-secrets.ts';
import { Applications } from './applications.ts';
import { CredentialAttemptLimits, type CredentialAttemptLimitOptions } from './credential-attempts.ts';
import { HostedConnectors } from './hosted-connectors.ts';
import { DeploymentUpstreams } from './deployment-upstreams.ts';
import { EgressPolicy } from '../security/egress/egress-policy.ts';
import { databaseIdentity, stableIdentity } from './sync/destinations/database-identity.ts';
import type { NetworkGuard } from './sync/destinations/network-guard.ts';
import { loadHostedConnectors, type BaseUrlsForTypes, type LoadedConnector, type OAuthUrlsForTypes } from './load-hosted-connectors.ts';
import type { WidgetScope } from './token-claims.ts';
import { TokenService } from './token-service.ts';
import { WidgetOrigins } from './widget-origins.ts';
import type { ContextStore } from './context-store/context-store.ts';
import { createContextStore } from './context-store/create-context-store.ts';
import { ConnectorReplication } from './replication/connector-replication.ts';
import { ReplicationJobs } from './replication/replication-jobs.ts';
import { ReplicationScheduler, type ReplicationEvent } from './replication/replication-scheduler.ts';
import { LocalWorkspaceDirectory, type CloudWorkspaceDirectory } from './workspaces.ts';
import { ActorTable } from './cloud-api/actor-table.ts';
import { openCloudDatabase } from './cloud-api/cloud-database.ts';
import { createPublicApi, type PublicApi } from './cloud-api/public-api.ts';
import type { SqlDriver } from '../stores/sql-driver.ts';
import { NotFoundError } from '../errors.ts';
import { createDestination, workspaceDataDir } from './sync/destinations/create-destination.ts';
import { claimInstance } from './jobs/instance-claim.ts';
import { instanceIdOf } from './jobs/instance-identity.ts';
import { openJobQueues } from './jobs/job-queues.ts';
import { migrateSync } from './sync/migrate-sync.ts';
import { migrateOAuth } from './oauth/migrate-oauth.ts';
import type { NotificationLogEvent } from './notifications/delivery-attempts.ts';
import { createNotifications, type HostedNotifications } from './notifications/hosted-notifications.ts';
import { migrateNotifications } from './notifications/migrate-notifications.ts';
import { migratePermissions } from './permissions/migrate-permissions.ts';
import { createPermissions, type Permissions } from './permissions/permissions.ts';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './notifications/notification-settings.ts';
import { OAuthTokens } from './oauth/oauth-tokens.ts';
import { ScheduledSyncs } from './sync/scheduled-syncs.ts';
import { SyncJobs } from './sync/sync-jobs.ts';
import { SyncStates } from './sync/sync-states.ts';
import { SyncWorker, type SyncEvent } from './sync/sync-worker.ts';

export interface HostedRuntimeOptions {
  /** PostgreSQL when set; else SQLite under `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  databaseSchema?: string;
  dataDir: string;
  /** Issuer of the tokens: the public address of the service. */
  issuer: string;
  /** The built-in connector packages (the server passes BUILTIN_CONNECTORS), loaded first: core knows no connector itself. */
  builtins: readonly string[];
  /** Connector packages loaded beside the built-ins: module specifiers or paths (PLUGBOARD_CONNECTORS). */
  connectors?: readonly string[];
  /** Upstream API root per connector type (PLUGBOARD_<TYPE>_BASE_URL), asked for the types loaded. */
  baseUrls: BaseUrlsForTypes;
  /** Per type, the operator's OAuth endpoints in place of the connectors' declared ones. */
  oauthUrls?: OAuthUrlsForTypes;
  /** What connections made on a tenant's behalf may reach (default: public addresses only). */
  egress?: EgressPolicy;
  env?: NodeJS.ProcessEnv;
  cloud?: CloudWorkspaceDirectory;
  /** Told about key problems the runtime works around while serving (see TokenService). */
  onKeyProblem?: (message: string) => void;
  /** Told about a store that works but is not as it should be (Plugboard's tables still in `public`). */
  onStoreWarning?: (message: string) => void;
  /** Milliseconds since the epoch, for token lifetimes and widget-origin expiry; tests move it. */
  clock?: () => number;
  /** Limits on failed application-credential attempts (default DEFAULT_CREDENTIAL_ATTEMPT_LIMITS). */
  credentialAttemptLimits?: CredentialAttemptLimitOptions;
  /** How long one search of the context store may run (default DEFAULT_SEARCH_BUDGET_MS); past it, a 422 query_too_expensive. */
  searchBudgetMs?: number;
  /** Between two refreshes of a connector's context store (default one hour), and how often due ones are looked for. */
  replication?: { intervalMs?: number; pollMs?: number; leaseMs?: number; log?: (event: ReplicationEvent) => void };
  /** How often the sync worker looks for jobs and schedules, how long its leases last, its first retry's delay. */
  sync?: { pollMs?: number; leaseMs?: number; retryDelayMs?: number; log?: (event: SyncEvent) => void };
  /** Webhook delivery and auto-disable (default DEFAULT_NOTIFICATION_SETTINGS: Airbyte's thresholds). */
  notifications?: { settings?: NotificationSettings; log?: (event: NotificationLogEvent) => void };
}

/** Everything the hosted service runs on, built once at start: what `server/` adapts to HTTP. */
export interface HostedRuntime {
  store: Store;
  keyring: DataKeyring;
  tokens: TokenService;
  /** Application credentials: creation and the application-token endpoint's check. */
  applications: Applications;
  /** Users (the applications) and their permissions: who a token is for and what it may do. */
  permissions: Permissions;
  /** Origins of live widget tokens, for CORS preflights. */
  widgetOrigins: WidgetOrigins;
  runtime: Runtime;
  /** Every connector type served, with its version and upstream: what the start-up log lists. */
  loadedConnectors: LoadedConnector[];
  connectors: HostedConnectors;
  /** Replicated records for search, and the jobs that fill it. */
  contextStore: ContextStore;
  replication: ConnectorReplication;
  /** Runs replication jobs; started by the server, stopped by close(). */
  replicationScheduler: ReplicationScheduler;
  cloud: CloudWorkspaceDirectory;
  /** The public cloud API's resources (core/hosted/cloud-api/). */
  publicApi: PublicApi;
  /** The cloud API's database: its sources, destinations and connections, and the sync engine's tables. */
  cloudDb: SqlDriver;
  /** Runs sync jobs and fires connections' schedules; started by the server, stopped by close(). */
  syncWorker: SyncWorker;
  /** Each connection's per-stream sync state. */
  syncStates: SyncStates;
  /** Workspaces' and organizations' webhooks: events recorded, the delivery log, the worker that sends (started by the server). */
  notifications: HostedNotifications;
  /**
   * A widget's scoped token, its origin recorded (WidgetOrigins) until the token expires before it is
   * answered, so CORS preflights from that origin pass from the first, on every instance.
   */
  issueWidgetToken(organizationId: string, workspaceId: string, widget: WidgetScope, applicationId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the runtime, refusing (KeyConfigurationError) a key setup that would fail requests later: a
 * shared PostgreSQL store without PLUGBOARD_DATA_KEYS, or data keys that do not open the active signing key;
 * and refusing (ConfigurationError) a plugin it cannot load or a base URL it cannot use.
 */
export async function createHostedRuntime(options: HostedRuntimeOptions): Promise<HostedRuntime> {
  // Connectors and keys first: a refused configuration must not have touched the database.
  const { runtime, baseUrls, loaded } = await loadHostedConnectors(options.builtins, options.connectors ?? [], options.baseUrls);
  const keyring = loadDataKeyring(options.env ?? process.env, options.dataDir, { shared: Boolean(options.databaseUrl) });
  // On PostgreSQL, Plugboard's tables in a schema of their own (see ownSchema).
  const databaseSchema = options.databaseUrl ? await ownSchema(options.databaseUrl, options.databaseSchema, options.onStoreWarning) : undefined;
  const store = await createStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, schema: databaseSchema });
  const tokens = new TokenService(store, keyring, options.issuer, { clock: options.clock, onKeyProblem: options.onKeyProblem });
  try {
    await tokens.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  const widgetOrigins = new WidgetOrigins(store, { clock: options.clock });
  const contextStore = await createContextStore({
    databaseUrl: options.databaseUrl,
    schema: databaseSchema,
    dataDir: options.dataDir,
    searchBudgetMs: options.searchBudgetMs,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const cloudDb = await openSyncDatabase({ ...options, databaseSchema }).catch(async (error: unknown) => {
    await contextStore.close();
    await store.close();
    throw error;
  });
  const jobQueues = await openJobQueues({
    databaseUrl: options.databaseUrl,
    schema: databaseSchema,
    onError: (error) => options.sync?.log?.({ event: 'sync_poll_failed', error: String(error) }),
  }).catch(async (error: unknown) => {
    await cloudDb.close();
    await contextStore.close();
    await store.close();
    throw error;
  });
  // Stable across restarts: a restart takes back at once the jobs its crashed run held (see instanceIdOf),
  // unless another live process goes by the same id: this run then goes by one of its own.
  const claimedId = instanceIdOf(options.dataDir, options.env ?? process.env);
  const claim = await claimInstance(claimedId, { databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  const instanceId = claim.held ? claimedId : undefined;
  for (const type of runtime.connectorTypes()) for (const catalog of runtime.plugin(type).searchCatalogs().values()) await contextStore.prepare(catalog);
  const jobs = new ReplicationJobs(contextStore.driver, options.clock);
  const egress = options.egress ?? new EgressPolicy();
  const upstreams = new DeploymentUpstreams(baseUrls, egress, options.oauthUrls?.(runtime.connectorTypes()) ?? {});
  const destinationGuard: NetworkGuard = {
    egress,
    ...(options.databaseUrl ? { ownDatabase: stableIdentity(() => databaseIdentity((sql) => cloudDb.all<Record<string, unknown>>(sql))) } : {}),
  };
  const notifications = createNotifications({
    cloudDb,
    store,
    keyring,
    egress,
    settings: options.notifications?.settings ?? DEFAULT_NOTIFICATION_SETTINGS,
    publicUrl: options.issuer,
    offeredStreams: (connection) => publicApi.connections.sourceStreams(connection.organizationId, connection.id),
    queues: jobQueues.queue,
    instanceId,
    clock: options.clock,
    log: options.notifications?.log,
  });
  const sources = new ActorTable(cloudDb, 'cloud_sources', 'source_id');
  const oauthTokens = new OAuthTokens(cloudDb, keyring, (db, key) => notifications.credentialExpired(db, key), {
    connector: async (id) => (await store.getConnector(id)) !== null,
    source: async (id) => (await sources.get(id)) !== undefined,
  });
  const connectors: HostedConnectors = new HostedConnectors(store, keyring, runtime, upstreams, contextStore, oauthTokens, {
    async created(connector) {
      await notifications.sourceCreated(connector);
      if (runtime.plugin(connector.connector_type).searchCatalogs().size === 0) return;
      await jobs.add(connector.id);
      replicationScheduler.trigger();
    },
    async updated(connector, change) {
      if (runtime.plugin(connector.connector_type).searchCatalogs().size > 0) await replication.changed(connector.id, change);
    },
    changed: (connector) => notifications.sourceUpdated(connector),
    async deleted(id, connector) {
      replicationScheduler.cancel(id);
      await contextStore.deleteConnector(id);
      await notifications.sourceDeleted(connector);
    },
  });
  const replicationScheduler = new ReplicationScheduler({
    jobs,
    store: contextStore,
    target: (id) => connectors.replicationTarget(id),
    intervalMs: options.replication?.intervalMs ?? 3_600_000,
    pollMs: options.replication?.pollMs,
    leaseMs: options.replication?.leaseMs,
    log: options.replication?.log,
    ended: (connectorId, outcome) => notifications.replicationEnded(connectorId, outcome),
    queues: jobQueues.queue,
    instanceId,
  });
  const replication = new ConnectorReplication(connectors, runtime, jobs, contextStore, replicationScheduler);
  const permissions = createPermissions(cloudDb, store, options.clock);
  // Applications made before permissions existed become their organization's admins, as they were.
  await permissions.enroll(await store.listApplications());
  const syncJobs = new SyncJobs(cloudDb, options.clock, (tx, jobId) => notifications.syncJobEnded(tx, jobId));
  const syncStates = new SyncStates(cloudDb);
  const publicApi = createPublicApi({
    store,
    cloudDb,
    keyring,
    runtime,
    upstreams,
    connectors,
    dataDir: options.dataDir,
    destinationGuard,
    syncJobs,
    syncStates,
    jobAdded: () => syncWorker.trigger(),
    oauthTokens,
    clock: options.clock,
  });
  publicApi.workspaces.notificationSettings = notifications.workspaceSettings;
  const syncWorker: SyncWorker = new SyncWorker({
    jobs: syncJobs,
    schedules: new ScheduledSyncs(cloudDb, syncJobs, options.clock),
    states: syncStates,
    runtime,
    upstreams,
    oauthTokens,
    openDestination: (destination, workspaceId) =>
      createDestination(destination.destinationType, destination.configuration, {
        dataDir: workspaceDataDir(options.dataDir, workspaceId),
        guard: destinationGuard,
      }),
    connectionExists: (connectionId) => publicApi.connections.exists(connectionId),
    target: (connectionId) =>
      publicApi.connections.syncTarget(connectionId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    queues: jobQueues.queue,
    instanceId,
    ...options.sync,
  });
  return {
    store,
    keyring,
    runtime,
    loadedConnectors: loaded,
    tokens,
    applications: new Applications(
      store,
      new ClientSecrets(keyring),
      new CredentialAttemptLimits(store, options.credentialAttemptLimits),
      async (application) => void (await permissions.enroll([application])),
    ),
    permissions,
    widgetOrigins,
    connectors,
    contextStore,
    replication,
    replicationScheduler,
    cloud: options.cloud ?? new LocalWorkspaceDirectory(),
    publicApi,
    cloudDb,
    syncWorker,
    syncStates,
    notifications,
    async issueWidgetToken(organizationId, workspaceId, widget, applicationId) {
      const token = await tokens.issueWidgetScopedToken(organizationId, workspaceId, widget, applicationId);
      await widgetOrigins.record(organizationId, workspaceId, widget.allowed_origin, decodeJwt(token).exp! * 1000);
      return token;
    },
    async close() {
      await syncWorker.stop();
      await replicationScheduler.stop();
      await notifications.worker.stop();
      await jobQueues.close();
      await contextStore.close();
      await cloudDb.close();
      await store.close();
      await claim.release();
    },
  };
}

/** The cloud API's database, with the sync engine's tables beside its resources. */
async function openSyncDatabase(options: HostedRuntimeOptions): Promise<SqlDriver> {
  const cloudDb = await openCloudDatabase({ databaseUrl: options.databaseUrl, schema: options.databaseSchema, dataDir: options.dataDir });
  try {
    await migrateSync(cloudDb);
    await migrateOAuth(cloudDb);
    await migrateNotifications(cloudDb);
    await migratePermissions(cloudDb);
  } catch (error) {
    await cloudDb.close();
    throw error;
  }
  return cloudDb;
}
