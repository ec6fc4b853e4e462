/**
 * plugboard/cloud: workspaces, sources, destinations, connections and sync jobs of the public cloud
 * API (Plugboard's server or any deployment speaking the official public API), and the synced data.
 */
export type { CheckConnectionResult } from './actor.ts';
export type * from './api-types.ts';
export {
  AIRBYTE_CLOUD_API_ROOT,
  AIRBYTE_CLOUD_CONFIG_API_ROOT,
  CloudClientConfig,
  type CloudClientConfigOptions,
  configApiRootFor,
  ENV,
  PLUGBOARD_CLOUD_API_ROOT,
} from './config.ts';
export { CloudConnection, type DeleteConnectionOptions, type RunSyncOptions, type SyncLogsOptions } from './connection.ts';
export { CustomCloudSourceDefinition, type CustomDefinitionType } from './custom-definition.ts';
export type { CustomSourceDefinitionInput, PublishOptions } from './custom-definition-publish.ts';
export { CloudDestination } from './destination.ts';
export { CloudWorkspaces } from './organization-workspaces.ts';
export * from './errors.ts';
export { FAILED_STATUSES, FINAL_STATUSES, JobStatus } from './job-status.ts';
export { isNamedForDeletion } from './safe-mode.ts';
export { Secret } from './secret.ts';
export { CloudSource } from './source.ts';
export type { Dataset, SqlCache, SqlDestination, SqlDestinationType } from './sql/sql-destination.ts';
export { type SqlReadOptions, type SyncAttempt, type SyncProgress, SyncResult, type SyncResultOptions, type WaitForCompletionOptions } from './sync-result.ts';
export {
  CloudWorkspace,
  type CloudOrganization,
  type CloudWorkspaceOptions,
  type ConnectorInput,
  type DeployConnectionOptions,
  type DeployOptions,
  type ListOptions,
} from './workspace.ts';
