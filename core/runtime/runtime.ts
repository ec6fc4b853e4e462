import type { Ajv } from 'ajv';
import type { DependencyContainer } from 'tsyringe';
import { invalidField } from '../errors.ts';
import { executeAction, type ExecutionTarget } from '../execution/execute-action.ts';
import type { ExecuteRequest } from '../execution/types.ts';
import { compileConnector, loadConnectorModule } from '../plugins/load-connector.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { ConnectorDefinition } from '../sdk/index.ts';
import { HttpTransport } from '../transport/http-transport.ts';
import { createConnectorClient, type ConnectorClient, type ConnectorTypeMap } from './connector-client.ts';
import { createRuntimeContainer, findConnector, registerConnector, TOKENS } from './container.ts';
import { authHeadersFor, normalizeBaseUrl } from './credentials.ts';
import { createHostedExecutor } from '../hosted-client/hosted-executor.ts';
import type { HostedConnectorConfig } from '../hosted-client/hosted-session.ts';

/** An in-process connector instance: the caller's credentials, and optionally another API root. */
export interface LocalConnectorConfig {
  credentials: { access_token: string } | { token: string };
  /** API root; the connector appends its paths. Defaults to the connector's `defaultBaseUrl`. */
  base_url?: string;
}

/** Holds the loaded connector plugins (in its own tsyringe container) and makes instances of them. */
export class Runtime {
  private readonly ajv: Ajv;

  constructor(private readonly container: DependencyContainer = createRuntimeContainer()) {
    this.ajv = container.resolve<Ajv>(TOKENS.ajv);
  }

  /** Loads a connector package by module specifier (package name, file URL or path) and registers it. */
  async loadConnector(specifier: string): Promise<string> {
    const connector = await loadConnectorModule(specifier, this.ajv);
    registerConnector(this.container, connector);
    return connector.type;
  }

  /** Registers a connector definition given as a value. */
  registerConnector(definition: ConnectorDefinition): string {
    const connector = compileConnector(definition, this.ajv, `connector value "${String(definition?.type)}"`);
    registerConnector(this.container, connector);
    return connector.type;
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
    return createConnectorClient<M>(plugin, this.executor(type, config));
  }

  /**
   * The execute function of one connector instance. The hosted server uses it with a stored
   * connector's id and mode `hosted`; the in-process client with the type id.
   */
  executor(
    type: string,
    config: LocalConnectorConfig,
    identity: { connectorId: string; mode: ExecutionTarget['mode'] } = { connectorId: type, mode: 'in-process' },
  ) {
    const connector = this.plugin(type);
    const { definition } = connector;
    const headers = authHeadersFor(definition, config?.credentials);
    const baseUrl = normalizeBaseUrl(config.base_url ?? definition.defaultBaseUrl);
    const target: ExecutionTarget = { connector, transport: new HttpTransport(baseUrl, definition.transport, headers), ...identity };
    return (request: ExecuteRequest) => executeAction(target, request);
  }
}
