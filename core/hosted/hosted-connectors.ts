import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { AccessDeniedError, ConflictError, invalidField, NotFoundError, ValidationError, type ErrorBody } from '../errors.ts';
import { checkCredentials } from '../execution/check-credentials.ts';
import type { DownloadResult, ExecuteFunction, ExecuteRequest, ExecuteResult } from '../execution/types.ts';
import type { LocalConnectorConfig, Runtime } from '../runtime/runtime.ts';
import { authHeadersFor } from '../runtime/credentials.ts';
import { toValidationIssues } from '../schema/validation-issues.ts';
import { credentialsUnavailable, UndecryptableValueError, type DataKeyring } from '../security/data-keyring.ts';
import { CREDENTIAL_FIELD, type AuthKind, type Credentials } from '../sdk/index.ts';
import type { Store, StoredConnector, Template } from '../stores/types.ts';
import type { ContextStore } from './context-store/context-store.ts';
import type { DeploymentUpstreams } from './deployment-upstreams.ts';
import type { ReplicationTarget } from './replication/run-replication.ts';
import { credentialKeys, type CredentialStatus, type OAuthTokens } from './oauth/oauth-tokens.ts';
import { forTokenSubject } from './stale-token.ts';
import { requireWorkspace } from './permissions/request-access.ts';
import { offersTemplate } from './templates.ts';
import type { WidgetScope } from './token-claims.ts';

/** What a stored connector holds to reach its upstream: credentials, or a configured type's configuration. */
type StoredAccess = Credentials | Record<string, unknown>;
export type StoredAuthType = StoredConnector['auth_type'];

/** A stored connector as the API answers it: never the credentials. */
export interface HostedConnectorRecord {
  id: string;
  name: string;
  connector_type: string;
  external_user_id: string;
  workspace_id: string;
  /** The credential kind it holds, or `config`: a configured type's configuration (an Airbyte manifest's). */
  auth_type: StoredAuthType;
  /** `needs_reauth` once the OAuth grant is gone (revoked, expired): only connecting again helps. */
  auth_status: CredentialStatus;
  replication_config: Record<string, unknown> | null;
  source_template_id: string | null;
  created_at: string;
}

export interface CreateConnectorInput {
  external_user_id: string;
  connector_type: string;
  name?: string;
  credentials?: unknown;
  /** A configured type's configuration (an Airbyte manifest's), in place of credentials. */
  config?: unknown;
  replication_config?: Record<string, unknown>;
  source_template_id?: string;
}

/** An embedded source: a connector made from a source template (an embedded source). */
interface EmbeddedSourceInput {
  source_template_id: string;
  name: string;
  credentials: unknown;
  /** Default: the workspace id (a widget's end user is its workspace). */
  external_user_id?: string;
  replication_config?: Record<string, unknown>;
}

/** What an update of an embedded source may replace; at least one of them (the body schema says so). */
export interface EmbeddedSourceChanges {
  name?: string;
  credentials?: unknown;
  replication_config?: Record<string, unknown>;
}

/** Who is asking: an operator sees its whole organization, a scoped token one workspace. */
export interface AccessScope {
  organization_id: string;
  workspace_id?: string;
}

/**
 * 409: the workspace already has a connector of this type for this external user. The answer names
 * it, so a create retried after a lost response finds the first one instead of making a second.
 */
class ConnectorExistsError extends ConflictError {
  readonly connector_id: string;

  constructor(existing: StoredConnector) {
    super(
      `A ${existing.connector_type} connector for external user "${existing.external_user_id}" already exists in this workspace: ${existing.id}`,
      'connector_exists',
    );
    this.connector_id = existing.id;
  }

  override toJSON(): ErrorBody & { connector_id: string } {
    return { ...super.toJSON(), connector_id: this.connector_id };
  }
}

const EXECUTOR_CACHE_SIZE = 500;

/**
 * Stored connectors: created with credentials (encrypted at rest, never returned), bound to a
 * workspace and an external user, executed against the deployment's upstream base URL.
 */
export class HostedConnectors {
  /**
   * Instances are reused across executes of the same connector, while its stored credentials are the
   * ones they were built with (another instance of the server may have replaced them).
   */
  private readonly executors = new Map<string, { ciphertext: string; execute: ExecuteFunction }>();

  constructor(
    private readonly store: Store,
    private readonly keyring: DataKeyring,
    private readonly runtime: Runtime,
    /** Upstream API root per connector type: a deployment setting, never taken from callers. */
    private readonly upstreams: DeploymentUpstreams,
    /** Where replication stores records and search reads them. */
    private readonly contextStore: ContextStore,
    /** The renewed tokens of OAuth credentials that carry a refresh grant. */
    private readonly oauthTokens: OAuthTokens,
    /** Told of each connector stored (its first replication) and deleted. */
    private readonly lifecycle: {
      created(connector: StoredConnector): Promise<void>;
      /** Its credentials or replication config changed; `reset`: what replication stored no longer holds. */
      updated(connector: StoredConnector, change: { reset: boolean }): Promise<void>;
      /** An embedded source updated in any way, its name alone included (the organization's webhook is told). */
      changed?(connector: StoredConnector): Promise<void>;
      deleted(id: string, connector: StoredConnector): Promise<void>;
    },
  ) {}

  async create(scope: Required<AccessScope>, input: CreateConnectorInput): Promise<HostedConnectorRecord> {
    requireWorkspace(scope.workspace_id);
    const types = this.runtime.connectorTypes();
    if (!types.includes(input.connector_type)) {
      throw invalidField(
        ['body', 'connector_type'],
        `unknown connector type "${input.connector_type}"; allowed: ${types.join(', ')}`,
        'value_error.unknown_connector_type',
      );
    }
    const { credentials, authType } = this.checkAccess(input.connector_type, input);
    const replicationConfig = this.checkReplicationConfig(input.connector_type, input.replication_config);
    // A create retried after a lost answer is told at once, without calling the upstream; the insert below still decides a race.
    const [existing] = await this.store.listConnectors({
      workspace_id: scope.workspace_id,
      external_user_id: input.external_user_id,
      connector_type: input.connector_type,
    });
    if (existing) throw new ConnectorExistsError(existing);
    const id = randomUUID();
    // Last of the checks, since it calls the upstream; whatever it throws, nothing has been stored.
    await this.checkWithUpstream(input.connector_type, id, credentials);
    const connector: StoredConnector = {
      id,
      organization_id: scope.organization_id,
      workspace_id: scope.workspace_id,
      external_user_id: input.external_user_id,
      connector_type: input.connector_type,
      name: input.name ?? `${input.connector_type} connector of ${input.external_user_id}`,
      auth_type: authType,
      credentials: this.seal(credentials),
      replication_config: replicationConfig,
      source_template_id: input.source_template_id ?? null,
      created_at: new Date().toISOString(),
    };
    const kept = await forTokenSubject(this.store.createConnectorIfAbsent(connector));
    if (kept.id !== connector.id) throw new ConnectorExistsError(kept);
    await this.lifecycle.created(connector);
    return toRecord(connector, 'active');
  }

  /**
   * A connector from one of the organization's source templates; a widget may use only the templates
   * its tag filter offers (any other is not found, as if it did not exist), and only for its workspace's
   * own end user: an external_user_id of its choosing could take another user's connector key first.
   */
  async createEmbeddedSource(scope: Required<AccessScope>, widget: WidgetScope | undefined, input: EmbeddedSourceInput): Promise<HostedConnectorRecord> {
    if (widget && input.external_user_id !== undefined) {
      throw invalidField(
        ['body', 'external_user_id'],
        'a widget creates sources for its workspace only: leave external_user_id out',
        'value_error.not_allowed_for_widget',
      );
    }
    const template = await this.offeredTemplate(scope, widget, input.source_template_id);
    return this.create(scope, {
      external_user_id: input.external_user_id ?? scope.workspace_id,
      connector_type: template.connector_type,
      name: input.name,
      credentials: input.credentials,
      ...(input.replication_config ? { replication_config: input.replication_config } : {}),
      source_template_id: template.id,
    });
  }

  /** A source template of the organization the caller may use (a widget: one its tags offer); any other is not found, as if it did not exist. */
  async offeredTemplate(scope: Required<AccessScope>, widget: WidgetScope | undefined, templateId: string): Promise<Template> {
    const template = await this.store.getTemplate(templateId);
    const offered = template && template.kind === 'source' && template.organization_id === scope.organization_id && offersTemplate(widget, template);
    if (!offered) throw new NotFoundError(`Source template ${templateId} not found`, 'source_template_not_found');
    return template;
  }

  /**
   * Replaces an embedded source's name, credentials (checked with the upstream before anything is
   * stored, like at creation) or replication config, each only when given: a concurrent update of
   * another field stands. A widget reaches only the sources it could have created: from a template
   * its tags offer, for its workspace's own end user. Any other, or an unknown id, is not found.
   */
  async updateEmbeddedSource(
    scope: Required<AccessScope>,
    widget: WidgetScope | undefined,
    id: string,
    changes: EmbeddedSourceChanges,
  ): Promise<HostedConnectorRecord> {
    const connector = await this.findEmbeddedSource(scope, widget, id);
    const type = connector.connector_type;
    const credentials = changes.credentials === undefined ? undefined : this.checkAccess(type, { credentials: changes.credentials });
    const replicationConfig = changes.replication_config === undefined ? undefined : this.checkReplicationConfig(type, changes.replication_config);
    if (credentials) await this.checkWithUpstream(type, id, credentials.credentials);
    const sealed = credentials && { auth_type: credentials.authType, credentials: this.seal(credentials.credentials) };
    const settingsChanged = replicationConfig !== undefined && !isDeepStrictEqual(replicationConfig, connector.replication_config);
    const stored = await this.store.updateConnector(id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(settingsChanged ? { replication_config: replicationConfig } : {}),
      ...(sealed ? { credentials: sealed } : {}),
    });
    if (!stored) throw new NotFoundError(`Source ${id} not found`, 'source_not_found');
    // New credentials start afresh: whatever was renewed of the old ones, or found revoked, is theirs alone.
    if (credentials) await this.oauthTokens.replaced(credentialKeys.connector(id), credentials.credentials);
    const updated: StoredConnector = {
      ...connector,
      ...(sealed ?? {}),
      name: changes.name ?? connector.name,
      replication_config: settingsChanged ? replicationConfig : connector.replication_config,
    };
    if (sealed || settingsChanged) {
      // Another account's credentials, or another start date: what the store holds no longer answers to them.
      const startMoved = settingsChanged && replicationConfig?.start_date !== connector.replication_config?.start_date;
      await this.lifecycle.updated(updated, { reset: sealed !== undefined || startMoved });
    }
    await this.lifecycle.changed?.(updated);
    return (await this.withStatus([updated]))[0]!;
  }

  /** An embedded source the caller may change: in its workspace (else 403, as everywhere), and to a widget one it could have made. */
  private async findEmbeddedSource(scope: Required<AccessScope>, widget: WidgetScope | undefined, id: string): Promise<StoredConnector> {
    const notFound = new NotFoundError(`Source ${id} not found`, 'source_not_found');
    const connector = await this.find(scope, id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? notFound : error;
    });
    const template = connector.source_template_id ? await this.store.getTemplate(connector.source_template_id) : null;
    if (!template || (widget && !reachableByWidget(widget, template, connector, scope.workspace_id))) throw notFound;
    return connector;
  }

  /**
   * The workspace's embedded sources; a widget sees only those it could have made (its templates,
   * its workspace's own end user), not other end users' nor what its tags hide.
   */
  async listEmbeddedSources(scope: Required<AccessScope>, widget: WidgetScope | undefined): Promise<HostedConnectorRecord[]> {
    requireWorkspace(scope.workspace_id);
    const sources = await this.store.listConnectors({ workspace_id: scope.workspace_id, from_template: true });
    if (!widget) return this.withStatus(sources);
    const templates = new Map<string, Template | null>();
    const visible: StoredConnector[] = [];
    for (const source of sources) {
      const templateId = source.source_template_id!;
      if (!templates.has(templateId)) templates.set(templateId, await this.store.getTemplate(templateId));
      const template = templates.get(templateId);
      if (template && reachableByWidget(widget, template, source, scope.workspace_id)) visible.push(source);
    }
    return this.withStatus(visible);
  }

  async list(scope: AccessScope, filter: { external_user_id?: string; connector_type?: string; from_template?: boolean }): Promise<HostedConnectorRecord[]> {
    if (!scope.workspace_id) throw new AccessDeniedError();
    requireWorkspace(scope.workspace_id);
    return this.withStatus(await this.store.listConnectors({ workspace_id: scope.workspace_id, ...filter }));
  }

  async get(scope: AccessScope, id: string): Promise<HostedConnectorRecord> {
    return (await this.withStatus([await this.find(scope, id)]))[0]!;
  }

  /** The records of stored connectors, each with whether its OAuth grant still works. */
  private async withStatus(connectors: StoredConnector[]): Promise<HostedConnectorRecord[]> {
    const expired = await this.oauthTokens.needingReauth(connectors.map((connector) => credentialKeys.connector(connector.id)));
    return connectors.map((connector) => toRecord(connector, expired.has(credentialKeys.connector(connector.id)) ? 'needs_reauth' : 'active'));
  }

  async delete(scope: AccessScope, id: string): Promise<void> {
    const connector = await this.find(scope, id);
    await this.store.deleteConnector(id);
    await this.oauthTokens.forget(credentialKeys.connector(id));
    this.executors.delete(id);
    await this.lifecycle.deleted(id, connector);
  }

  /** What replication runs with, or undefined when the connector is gone. */
  async replicationTarget(id: string): Promise<ReplicationTarget | undefined> {
    const connector = await this.store.getConnector(id);
    if (!connector) return undefined;
    return { ...(await this.instanceOf(connector)), connectorId: id, config: connector.replication_config ?? undefined };
  }

  async execute(scope: AccessScope, id: string, request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> {
    const connector = await this.find(scope, id);
    return (await this.executorFor(connector))(request);
  }

  /**
   * A token used on a workspace it does not cover is a 403, whether that workspace is in the
   * caller's organization or another one; the answer is the same for both, so it tells nothing about
   * which. Only an id that names no connector at all is a 404.
   */
  private async find(scope: AccessScope, id: string): Promise<StoredConnector> {
    const connector = await this.store.getConnector(id);
    if (!connector) throw new NotFoundError(`Connector ${id} not found`, 'connector_not_found');
    const otherOrganization = connector.organization_id !== scope.organization_id;
    const otherWorkspace = scope.workspace_id !== undefined && connector.workspace_id !== scope.workspace_id;
    if (otherOrganization || otherWorkspace) throw new AccessDeniedError();
    requireWorkspace(connector.workspace_id);
    return connector;
  }

  /**
   * Credentials of a kind the type accepts (else a 422 at body.credentials), and that kind; for a
   * configured type (an Airbyte manifest), its configuration as the spec describes it (at body.config).
   */
  private checkAccess(type: string, given: { credentials?: unknown; config?: unknown }): { credentials: StoredAccess; authType: StoredAuthType } {
    const plugin = this.runtime.plugin(type);
    if (plugin.manifest) {
      if (given.credentials !== undefined)
        throw invalidField(
          ['body', 'credentials'],
          `connector type "${type}" is configured: give \`config\` as its spec describes, not credentials`,
          'value_error.config_expected',
        );
      return { credentials: plugin.manifest.checkConfig(given.config, ['body', 'config']), authType: 'config' };
    }
    if (given.config !== undefined)
      throw invalidField(['body', 'config'], `connector type "${type}" takes credentials, not a config`, 'value_error.credentials_expected');
    if (given.credentials === undefined) throw invalidField(['body', 'credentials'], 'field required', 'value_error.missing');
    authHeadersFor(plugin.definition, given.credentials, ['body', 'credentials']);
    const credentials = given.credentials as Credentials;
    return { credentials, authType: (Object.keys(CREDENTIAL_FIELD) as AuthKind[]).find((kind) => CREDENTIAL_FIELD[kind] in credentials)! };
  }

  /** Runs the type's declared credential check against the deployment's upstream: refused credentials are a 400, never stored. */
  private async checkWithUpstream(type: string, connectorId: string, credentials: StoredAccess): Promise<void> {
    if (this.runtime.plugin(type).manifest) {
      await checkCredentials(this.runtime.plugin(type), this.runtime.executor(type, this.configuredInstance(credentials), { connectorId, mode: 'hosted' }));
      return;
    }
    await this.upstreams.checkTokenUrl(type, credentials as Credentials, 'credentials.token_url');
    // A token renewed during the check is kept under the connector's id: a rotated refresh token is the only one left.
    const config = await this.oauthTokens.instanceConfig(credentialKeys.connector(connectorId), this.instanceConfig(type, credentials as Credentials));
    await checkCredentials(this.runtime.plugin(type), this.runtime.executor(type, config, { connectorId, mode: 'hosted' }));
  }

  /** The credentials as checked (the secret of the kind in use, and a refresh grant's fields), encrypted. */
  private seal(credentials: StoredAccess): StoredConnector['credentials'] {
    return this.keyring.encrypt(JSON.stringify(credentials));
  }

  /**
   * A deployment whose data keys lost the one that sealed these credentials cannot run the connector:
   * a 503 the operator can act on (key ids only), not a crash the caller can't tell from a bug.
   */
  private openCredentials(connector: StoredConnector): string {
    try {
      return this.keyring.decrypt(connector.credentials);
    } catch (error) {
      if (!(error instanceof UndecryptableValueError)) throw error;
      throw credentialsUnavailable("open the connector's stored credentials", error);
    }
  }

  private async executorFor(connector: StoredConnector): Promise<ExecuteFunction> {
    const { ciphertext } = connector.credentials;
    const cached = this.executors.get(connector.id);
    if (cached?.ciphertext === ciphertext) return cached.execute;
    this.executors.delete(connector.id);
    const { execute } = await this.instanceOf(connector);
    if (this.executors.size >= EXECUTOR_CACHE_SIZE) this.executors.delete(this.executors.keys().next().value!);
    this.executors.set(connector.id, { ciphertext, execute });
    return execute;
  }

  /** A stored connector as a runtime instance: its credentials opened (renewed ones where kept), its searches on the context store. */
  private async instanceOf(connector: StoredConnector) {
    const identity = { connectorId: connector.id, mode: 'hosted' as const, contextStore: async () => this.contextStore };
    if (connector.auth_type === 'config') {
      const config = JSON.parse(this.openCredentials(connector)) as Record<string, unknown>;
      return this.runtime.instance(connector.connector_type, this.configuredInstance(config, connector.id), identity);
    }
    const credentials = JSON.parse(this.openCredentials(connector)) as Credentials;
    const config = await this.oauthTokens.instanceConfig(credentialKeys.connector(connector.id), this.instanceConfig(connector.connector_type, credentials));
    return this.runtime.instance(connector.connector_type, config, {
      connectorId: connector.id,
      mode: 'hosted',
      contextStore: async () => this.contextStore,
    });
  }

  /**
   * A configured type's instance: every URL its configuration names is the tenant's, so it obeys the
   * deployment's egress policy as is. A configuration a read renewed (a single-use refresh token) is
   * stored sealed at once: the old one no longer works.
   */
  private configuredInstance(config: StoredAccess, connectorId?: string): LocalConnectorConfig {
    const keep = async (renewed: Record<string, unknown>) => {
      if (connectorId) await this.store.updateConnector(connectorId, { credentials: { auth_type: 'config', credentials: this.seal(renewed) } });
    };
    return { config: config as Record<string, unknown>, egress: this.upstreams.egress, onConfigChanged: keep };
  }

  /** An instance of the type with these credentials, calling the deployment's upstream for it. */
  private instanceConfig(type: string, credentials: Credentials): LocalConnectorConfig {
    return this.upstreams.instanceConfig(type, credentials);
  }

  /**
   * A type that declares no replication-config schema (file-storage) takes none: accepting any object
   * would store whatever arrives, unchecked, for a setting nothing reads.
   */
  private checkReplicationConfig(type: string, config: Record<string, unknown> | undefined): Record<string, unknown> | null {
    if (config === undefined) return null;
    const validate = this.runtime.plugin(type).validateReplicationConfig;
    if (!validate) {
      throw invalidField(
        ['body', 'replication_config'],
        `connector type "${type}" takes no replication_config; leave the field out`,
        'value_error.replication_config_not_supported',
      );
    }
    if (!validate(config)) throw new ValidationError(toValidationIssues(validate.errors ?? [], ['body', 'replication_config']));
    return config;
  }
}

/** A source a widget could have made: from a template its tags offer, for its workspace's own end user. */
function reachableByWidget(widget: WidgetScope, template: Template, source: StoredConnector, workspaceId: string): boolean {
  return offersTemplate(widget, template) && source.external_user_id === workspaceId;
}

function toRecord(connector: StoredConnector, authStatus: CredentialStatus): HostedConnectorRecord {
  return {
    id: connector.id,
    name: connector.name,
    connector_type: connector.connector_type,
    external_user_id: connector.external_user_id,
    workspace_id: connector.workspace_id,
    auth_type: connector.auth_type,
    auth_status: authStatus,
    replication_config: connector.replication_config,
    source_template_id: connector.source_template_id,
    created_at: connector.created_at,
  };
}
