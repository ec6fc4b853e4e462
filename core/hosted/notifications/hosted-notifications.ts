import type { DataKeyring } from '../../security/data-keyring.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store, StoredConnector } from '../../stores/types.ts';
import type { ConnectionRecord } from '../cloud-api/connection-table.ts';
import type { JobQueueFactory } from '../jobs/job-queue.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import { Deliveries } from './deliveries.ts';
import { DeliveryAttempts, type NotificationLogEvent } from './delivery-attempts.ts';
import { DeliveryWorker } from './delivery-worker.ts';
import { embeddedExpanders } from './embedded-expanders.ts';
import { embeddedSourceOf } from './embedded-messages.ts';
import { EventExpansion } from './event-expansion.ts';
import { Links } from './links.ts';
import { NotificationEvents } from './notification-events.ts';
import { NotificationLog } from './notification-log.ts';
import type { NotificationSettings } from './notification-settings.ts';
import { OrganizationNotifications } from './organization-notifications.ts';
import { OrganizationWebhooks } from './organization-webhooks.ts';
import { SchemaWatch } from './schema-watch.ts';
import { syncJobExpander } from './sync-job-expander.ts';
import { WebhookSecrets } from './webhook-secrets.ts';
import { WorkspaceWebhookSettings } from './webhook-urls.ts';
import { WorkspaceNotifications } from './workspace-notifications.ts';

/** What the rest of the runtime tells notifications of, each where it happens. */
export interface NotificationHooks {
  /** Inside the transaction that ends a sync job (succeeded, failed or cancelled). */
  syncJobEnded(tx: SqlDriver, jobId: number): Promise<void>;
  /** Where an OAuth grant is marked gone (in its transaction on PostgreSQL). */
  credentialExpired(db: SqlDriver, credentialKey: string): Promise<void>;
  sourceCreated(connector: StoredConnector): Promise<void>;
  sourceUpdated(connector: StoredConnector): Promise<void>;
  sourceDeleted(connector: StoredConnector): Promise<void>;
  replicationEnded(connectorId: string, outcome: { error?: string }): Promise<void>;
}

/** Notifications: the hooks that record events, the API's reach into them, and the worker that delivers. */
export interface HostedNotifications extends NotificationHooks {
  /** Checks a workspace's `notifications` as written (URLs allowed, masks restored). */
  workspaceSettings: WorkspaceWebhookSettings;
  workspaces: WorkspaceNotifications;
  organizationWebhooks: OrganizationWebhooks;
  organization: OrganizationNotifications;
  /** Started by the server, stopped by the runtime's close(). */
  worker: DeliveryWorker;
}

export interface NotificationDependencies {
  cloudDb: SqlDriver;
  store: Store;
  keyring: DataKeyring;
  egress: EgressPolicy;
  settings: NotificationSettings;
  /** The root of links when the settings give none: the server's public URL. */
  publicUrl: string;
  /** The streams a connection's source offers now (schema changes are told against the last seen). */
  offeredStreams(connection: ConnectionRecord): Promise<SyncStreamSpec[]>;
  queues?: JobQueueFactory;
  instanceId?: string;
  clock?: () => number;
  log?: (event: NotificationLogEvent) => void;
}

const LOG_KEPT_MS = 30 * 24 * 3600 * 1000;
const EVENTS_KEPT_MS = 7 * 24 * 3600 * 1000;

export function createNotifications(deps: NotificationDependencies): HostedNotifications {
  const clock = deps.clock ?? Date.now;
  const { cloudDb: db, keyring, settings } = deps;
  // Set once the worker exists: recording an event (often inside its cause's transaction) asks for a look once that is over.
  let worker: DeliveryWorker | undefined;
  const lookSoon = () => setTimeout(() => worker?.trigger(), 0).unref();
  const events = new NotificationEvents(db, clock, lookSoon);
  const deliveries = new Deliveries(db, keyring, clock);
  const secrets = new WebhookSecrets(db, keyring, clock);
  const links = new Links(settings.linkUrl ?? deps.publicUrl);
  const organizationWebhooks = new OrganizationWebhooks(db, keyring, deps.egress, clock);
  const log = new NotificationLog(deliveries, secrets, lookSoon);
  const failed = (error: unknown) => deps.log?.({ event: 'notification_poll_failed', error: String(error) });
  const expansion = new EventExpansion(
    db,
    events,
    deliveries,
    {
      sync_job_ended: syncJobExpander({
        db,
        store: deps.store,
        links,
        thresholds: settings.autoDisable,
        schemas: new SchemaWatch(db, deps.offeredStreams, clock),
      }),
      ...embeddedExpanders({ db, store: deps.store, webhooks: organizationWebhooks }),
    },
    failed,
  );
  worker = new DeliveryWorker({
    deliveries,
    attempts: new DeliveryAttempts({ deliveries, secrets, keyring, egress: deps.egress, settings, clock, log: deps.log }),
    expansion,
    async prune() {
      const now = clock();
      await deliveries.prune(now - LOG_KEPT_MS);
      await events.prune(now - EVENTS_KEPT_MS);
    },
    queues: deps.queues,
    instanceId: deps.instanceId,
    pollMs: settings.pollMs,
    leaseMs: settings.timeoutMs + 30_000,
    failed,
  });
  const source = (connector: StoredConnector) => ({ source: embeddedSourceOf(connector) });
  return {
    syncJobEnded: (tx, jobId) => events.record(tx, 'sync_job_ended', { jobId }),
    credentialExpired: (tx, credentialKey) => events.record(tx, 'credential_expired', { credentialKey }),
    sourceCreated: (connector) => events.record(db, 'source_created', source(connector)),
    sourceUpdated: (connector) => events.record(db, 'source_updated', source(connector)),
    sourceDeleted: (connector) => events.record(db, 'source_deleted', source(connector)),
    replicationEnded: (connectorId, outcome) => events.record(db, 'replication_ended', { connectorId, ...outcome }),
    workspaceSettings: new WorkspaceWebhookSettings(deps.egress),
    workspaces: new WorkspaceNotifications(deps.store, log, links, settings.autoDisable, clock),
    organizationWebhooks,
    organization: new OrganizationNotifications(organizationWebhooks, log, clock),
    worker,
  };
}
