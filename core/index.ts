/**
 * Plugboard's in-process API.
 *
 *   const runtime = await createRuntime();
 *   const chat = runtime.connector('chat', { credentials: { token } });
 *   const { result } = await chat.users.list({ limit: 10 });
 */
import { BUILTIN_CONNECTORS, type KnownConnectors } from './builtin-connectors.ts';
import type { ConnectorClient, UntypedConnector } from './runtime/connector-client.ts';
import { Runtime, type LocalConnectorConfig } from './runtime/runtime.ts';
import type { HostedConnectorConfig } from './hosted-client/hosted-session.ts';

export interface RuntimeOptions {
  /** Load the built-in connectors (chat). Default true. */
  builtins?: boolean;
  /** Further connector packages to load, by module specifier or path. */
  connectors?: string[];
}

/** The runtime with typed `connector()` for the built-in connector types. */
export interface PlugboardRuntime extends Runtime {
  connector<T extends keyof KnownConnectors>(type: T, config: LocalConnectorConfig | HostedConnectorConfig): ConnectorClient<KnownConnectors[T]>;
  connector(type: string, config: LocalConnectorConfig | HostedConnectorConfig): ConnectorClient<UntypedConnector>;
}

export async function createRuntime(options: RuntimeOptions = {}): Promise<PlugboardRuntime> {
  const runtime = new Runtime();
  const specifiers = [...(options.builtins === false ? [] : BUILTIN_CONNECTORS), ...(options.connectors ?? [])];
  for (const specifier of specifiers) await runtime.loadConnector(specifier);
  return runtime as PlugboardRuntime;
}

export { Runtime } from './runtime/runtime.ts';
export type { LocalConnectorConfig } from './runtime/runtime.ts';
export type { HostedConnectorConfig } from './hosted-client/hosted-session.ts';
export type { ConnectorClient, ConnectorTypeMap, UntypedConnector } from './runtime/connector-client.ts';
export type { DownloadResult, ExecuteRequest, ExecuteResult, ExecutionMetadata } from './execution/types.ts';
export type { CredentialCheckResult } from './execution/check-credentials.ts';
export type { KnownConnectors } from './builtin-connectors.ts';
export * from './errors.ts';
