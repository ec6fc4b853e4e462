/**
 * Plugboard's core: the runtime that loads connector packages and executes `{entity, action, params}`.
 * It knows no connector itself; the package's entry point (index.ts at the root) adds the built-ins.
 *
 *   const runtime = await createRuntimeWith(['./my-connector/index.ts'], { validateRecords: 'throw' });
 *   const client = runtime.connector('my-connector', { credentials: { token } });
 */
import type { PlugboardRuntime } from './runtime/known-connectors.ts';
import { Runtime, type RuntimeOptions } from './runtime/runtime.ts';

/** A runtime with the connector packages `specifiers` (module specifiers, file URLs or paths) loaded, in order. */
export async function createRuntimeWith(specifiers: readonly string[], options: RuntimeOptions = {}): Promise<PlugboardRuntime> {
  const runtime = new Runtime(options);
  for (const specifier of specifiers) await runtime.loadConnector(specifier);
  return runtime as PlugboardRuntime;
}

export { Runtime } from './runtime/runtime.ts';
export type { LocalConnectorConfig, RuntimeOptions } from './runtime/runtime.ts';
export type { KnownConnectors, PlugboardRuntime } from './runtime/known-connectors.ts';
export type { RecordValidation } from './execution/record-validation.ts';
export type { HostedConnectorConfig } from './hosted-client/hosted-session.ts';
export type { ConnectorClient, ConnectorTypeMap, UntypedConnector } from './runtime/connector-client.ts';
export type { DownloadResult, ExecuteRequest, ExecuteResult, ExecutionMetadata } from './execution/types.ts';
export type { CredentialCheckResult } from './execution/check-credentials.ts';
export * from './errors.ts';
