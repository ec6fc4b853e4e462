import type { Ajv } from 'ajv';
import type { DependencyContainer } from 'tsyringe';
import { invalidField, PlugboardError } from '../errors.ts';
import { executeAction, type ExecutionTarget } from '../execution/execute-action.ts';
import { RECORD_VALIDATION_MODES, type RecordValidation } from '../execution/record-validation.ts';
import type { ExecuteRequest } from '../execution/types.ts';
import { compileConnector, loadConnectorModule } from '../plugins/load-connector.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { ConnectorDefinition, OAuthCredentials, TokenCredentials, UpstreamClient } from '../sdk/index.ts';
import { HttpTransport } from '../transport/http-transport.ts';
import { upstreamClient } from '../execution/upstream-client.ts';
import { createConnectorClient, type ConnectorClient, type ConnectorTypeMap } from './connector-client.ts';
import { createRuntimeContainer, findConnector, registerConnector, TOKENS } from './container.ts';
import { normalizeBaseUrl, readCredentials } from './credentials.ts';
import { refreshingAuthOf, type TokenKeeperFactory } from './refreshing-auth.ts';
import { createHostedExecutor } from '../hosted-client/hosted-executor.ts';
import type { HostedConnectorConfig } from '../hosted-client/hosted-session.ts';
import { openLocalContextStore } from './local-context-store.ts';
import type { EgressPolicy } from '../security/egress/egress-policy.ts';
import type { ManifestRunner } from '../manifests/connector/manifest-runner.ts';
import { compileManifestConnector } from '../manifests/connector/compile-manifest.ts';

/** A manifest's instance has no declared calls for hooks to make: its reads are the interpreter's. */
const NO_DECLARED_CALLS: UpstreamClient = {
  requestJson: () => Promise.reject(new PlugboardError(501, 'An Airbyte manifest connector makes no declared upstream calls', 'not_implemented')),
};

/** An in-process connector instance: the caller's credentials, and optionally another API root. */
export interface LocalConnectorConfig {
  /**
   * OAuth (`access_token`) or a personal access token (`token`). OAuth credentials that carry
   * `refresh_token`, `client_id`, `client_secret` (and `token_url` unless the connector declares its
   * OAuth flow) are refreshed before `expires_at` and when the upstream says the token expired.
   */
  credentials?: OAuthCredentials | TokenCredentials;
  /**
   * A configured connector's configuration (an Airbyte manifest's, as its spec describes it), in
   * place of `credentials`: the API key or OAuth client is wherever the spec puts it.
   */
  config?: Record<string, unknown>;
  /** Told a configured connector's new configuration when a read renewed it (a single-use refresh token), for the app to persist. */
  onConfigChanged?: (config: Record<string, unknown>) => unknown;
  /**
   * Told the new credentials after each refresh, for the app to persist them: a provider that rotates
   * refresh tokens (Slack) accepts only the newest. Awaited; a failure is a process warning.
   */
  onCredentialsRefreshed?: (credentials: OAuthCredentials) => unknown;
  /** Where the hosted server keeps refreshed tokens (one refresh per credential across instances); in-process: memory. */
  tokenKeeper?: TokenKeeperFactory;
  /** API root; the connector appends its paths. Defaults to the connector's `defaultBaseUrl`. */
  base_url?: string;
  /** What sets `base_url`, named in network errors so a wrong one can be fixed; default `base_url` (the hosted server names its PLUGBOARD_<TYPE>_BASE_URL). */
  base_url_setting?: string;
  /**
   * A local context store (a SQLite file, created if missing): the instance gains `replicate()` and
   * the same `search` actions as the hosted server. Without it, search is a 400 `hosted_mode_only`.
   */
  context_store?: { path: string };
  /**
   * The network policy the instance's connections obey: the hosted server passes its own for a base
   * URL a tenant supplied. Without one, the instance connects wherever its base URL says.
   */
  egress?: EgressPolicy;
  /** The policy token requests obey, when not `egress` (a token URL a tenant supplied, not the operator's). */
  tokenEgress?: EgressPolicy;
}

export interface RuntimeOptions {
  /**
   * Whether each mapped record (a list's each element) is checked against its action's record
   * schema: `off` (the default: no cost), `warn` (a PLUGBOARD_RECORD_INVALID process warning, the
   * result returned), `throw` (a 502 `upstream_record_invalid`; what a connector's tests want).
   * Downloads and hosted-only search are never checked.
   */
  validateRecords?: RecordValidation;
}

/** Who an instance is: the stored connector's id when hosted (the type id in-process), and where its search reads. */
export type InstanceIdentity = Pick<ExecutionTarget, 'connectorId' | 'mode' | 'contextStore'>;

/** Holds the loaded connector plugins (in its own tsyringe container) and makes instances of them. */
export class Runtime {
  private readonly container: DependencyContainer = createRuntimeContainer();
  private readonly ajv: Ajv = this.container.resolve<Ajv>(TOKENS.ajv);
  private readonly validateRecords: RecordValidation;

  constructor(options: RuntimeOptions = {}) {
    const validateRecords = options.validateRecords ?? 'off';
    // Checked here, not at the first execute: a JavaScript caller's typo would otherwise switch validation off unseen.
    if (!RECORD_VALIDATION_MODES.includes(validateRecords)) {
      throw new TypeError(`validateRecords must be one of ${RECORD_VALIDATION_MODES.join(', ')}; got ${JSON.stringify(validateRecords)}`);
    }
    this.validateRecords = validateRecords;
  }

  /** Loads a connector package by module specifier (package name, file URL or path) and registers it. */
  async loadConnector(specifier: string): Promise<string> {
    const connector = await loadConnectorModule(specifier, this.ajv);
    registerConnector(this.container, connector);
    return connector.type;
  }

  /**
   * Registers a connector definition given as a value. `listed: false` keeps it out of
   * connectorTypes() (a workspace's own declarative source, which only its tenant reaches by type).
   */
  registerConnector(definition: ConnectorDefinition, options: { listed?: boolean } = {}): string {
    const connector = compileConnector(definition, this.ajv, `connector value "${String(definition?.type)}"`);
    registerConnector(this.container, connector, options.listed ?? true);
    return connector.type;
  }

  /**
   * Registers an Airbyte declarative manifest (YAML or JSON text, or its object) as connector `type`:
   * a ManifestLoadError names what Plugboard cannot run. `listed: false` as for registerConnector.
   */
  registerManifest(manifest: string | object, type: string, options: { listed?: boolean } = {}): string {
    const connector = compileManifestConnector(manifest, type);
    registerConnector(this.container, connector, options.listed ?? true);
    return connector.type;
  }

  /** Whether a type is registered, listed or not. */
  hasConnector(type: string): boolean {
    return findConnector(this.container, type) !== undefined;
  }

  connectorTypes(): string[] {
    return [...this.container.resolve<string[]>(TOKENS.connectorTypes)];
  }

  /** The compiled plugin of a type, or the 422 naming the loaded types. */
  plugin(type: string): CompiledConnector {
    const connector = findConnector(this.container, type);
    if (!connector) {
      throw invalidField(
        ['connector_type'],
        `unknown connector type "${type}"; loaded: ${this.connectorTypes().join(', ')}`,
        'value_error.unknown_connector_type',
      );
    }
    return connector;
  }

  /**
   * A connector instance. With `credentials` it is in-process: it calls the third party itself. With
   * `server_url` it is the hosted variant, with the same interface: the server holds the credentials.
   */
  connector<M extends ConnectorTypeMap>(type: string, config: LocalConnectorConfig | HostedConnectorConfig): ConnectorClient<M> {
    const plugin = this.plugin(type);
    if (config && 'server_url' in config) return createConnectorClient<M>(plugin, createHostedExecutor(plugin, config));
    if (!config?.context_store) return createConnectorClient<M>(plugin, this.executor(type, config));
    const local = openLocalContextStore(plugin, config.context_store);
    const instance = this.instance(type, config, { connectorId: type, mode: 'in-process', contextStore: local.open });
    return createConnectorClient<M>(plugin, instance.execute, {
      replicate: (replicationConfig) => local.replicate({ ...instance, connectorId: type }, replicationConfig),
      close: local.close,
    });
  }

  /**
   * The execute function of one connector instance. The hosted server uses it with a stored
   * connector's id and mode `hosted`; the in-process client with the type id.
   */
  executor(type: string, config: LocalConnectorConfig, identity: InstanceIdentity = { connectorId: type, mode: 'in-process' }) {
    return this.instance(type, config, identity).execute;
  }

  /** An instance's execute function, and the upstream client its hooks (and replication) call through. */
  instance(type: string, config: LocalConnectorConfig, identity: InstanceIdentity = { connectorId: type, mode: 'in-process' }) {
    const connector = this.plugin(type);
    if (connector.manifest) return this.manifestInstance(connector, connector.manifest, config, identity);
    const { definition } = connector;
    const credentials = readCredentials(definition, config?.credentials);
    const baseUrl = normalizeBaseUrl(config.base_url ?? definition.defaultBaseUrl);
    const refreshing = refreshingAuthOf(definition, credentials, config);
    const headers = refreshing ? {} : { [credentials.header]: credentials.headerValue(credentials.secret) };
    const transport = new HttpTransport(baseUrl, definition.transport, headers, config.egress, refreshing, config.base_url_setting ?? 'base_url');
    const target: ExecutionTarget = { connector, transport, upstream: upstreamClient(transport), validateRecords: this.validateRecords, ...identity };
    return { connector, upstream: target.upstream, execute: (request: ExecuteRequest) => executeAction(target, request) };
  }

  /**
   * An Airbyte manifest's instance: its configuration (`config`; the hosted server stores it as the
   * connector's credentials) checked against the spec, its actions served by the interpreter.
   */
  private manifestInstance(connector: CompiledConnector, runner: ManifestRunner, config: LocalConnectorConfig, identity: InstanceIdentity) {
    const loc = config?.config === undefined && config?.credentials !== undefined ? ['credentials'] : ['config'];
    const reader = runner.instance(runner.checkConfig(config?.config ?? config?.credentials, loc), {
      ...(config.egress ? { egress: config.egress } : {}),
      ...(config.onConfigChanged ? { onConfigChanged: config.onConfigChanged } : {}),
    });
    const target: ExecutionTarget = {
      connector,
      upstream: NO_DECLARED_CALLS,
      runAction: (action, params) => reader.run(action, params),
      validateRecords: this.validateRecords,
      ...identity,
    };
    return { connector, upstream: target.upstream, reader, execute: (request: ExecuteRequest) => executeAction(target, request) };
  }
}
