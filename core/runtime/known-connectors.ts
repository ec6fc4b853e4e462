import type { HostedConnectorConfig } from '../hosted-client/hosted-session.ts';
import type { ConnectorClient, ConnectorTypeMap, UntypedConnector } from './connector-client.ts';
import type { LocalConnectorConfig, Runtime } from './runtime.ts';

/**
 * Generated type maps of the connector types known by name, so `runtime.connector('chat', ...)` is
 * typed. Empty in core, which knows no connector: a connector package adds its own by declaration
 * merging, as the registry of Plugboard's built-ins does beside them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging fills it; a type alias could not be merged into.
export interface KnownConnectors {}

/** The runtime with typed `connector()` for the connector types in KnownConnectors. */
export interface PlugboardRuntime extends Runtime {
  connector<T extends keyof KnownConnectors>(type: T, config: LocalConnectorConfig | HostedConnectorConfig): ConnectorClient<KnownConnectors[T]>;
  connector<M extends ConnectorTypeMap = UntypedConnector>(type: string, config: LocalConnectorConfig | HostedConnectorConfig): ConnectorClient<M>;
}
