/**
 * The wire shapes the library reads and sends: the fields it uses of the official public API
 * (api_sdk.yaml) and config API (config.yaml), as Plugboard serves them.
 */

import type { NamespaceDefinition } from '../hosted/sync/destinations/destination-namespace.ts';

export type JsonObject = Record<string, unknown>;

export interface ApiPage<T> {
  data: T[];
  next?: string;
  previous?: string;
}

export interface ApiTokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

export interface ApiWorkspace {
  workspaceId: string;
  name: string;
  dataResidency?: string;
}

export interface ApiSource {
  sourceId: string;
  name: string;
  sourceType: string;
  definitionId?: string;
  workspaceId: string;
  configuration: JsonObject;
  createdAt?: number;
}

export interface ApiDestination {
  destinationId: string;
  name: string;
  destinationType: string;
  definitionId?: string;
  workspaceId: string;
  configuration: JsonObject;
  createdAt?: number;
}

export interface ApiStreamConfiguration {
  name: string;
  syncMode?: string;
  cursorField?: string[];
  primaryKey?: string[][];
}

export interface ApiConnectionSchedule {
  scheduleType: 'manual' | 'cron' | 'basic';
  cronExpression?: string;
  basicTiming?: string;
}

export type ConnectionStatus = 'active' | 'inactive' | 'deprecated';

export interface ApiConnection {
  connectionId: string;
  name: string;
  sourceId: string;
  destinationId: string;
  workspaceId: string;
  status: ConnectionStatus;
  schedule: ApiConnectionSchedule;
  prefix?: string;
  namespaceDefinition?: NamespaceDefinition;
  namespaceFormat?: string;
  configurations: { streams?: ApiStreamConfiguration[] };
  createdAt?: number;
}

export interface ApiConnectionPatch {
  name?: string;
  prefix?: string;
  status?: 'active' | 'inactive';
  schedule?: { scheduleType: 'manual' } | { scheduleType: 'cron'; cronExpression: string };
  configurations?: { streams: ApiStreamConfiguration[] };
}

/** Statuses as the public API spells them. */
export type ApiJobStatus = 'pending' | 'queued' | 'running' | 'incomplete' | 'failed' | 'succeeded' | 'cancelled';

export interface ApiJob {
  jobId: number;
  status: ApiJobStatus;
  jobType: string;
  startTime: string;
  connectionId: string;
  lastUpdatedAt?: string;
  duration?: string;
  bytesSynced?: number;
  rowsSynced?: number;
}

export interface ApiDeclarativeSourceDefinition {
  id: string;
  name: string;
  manifest: JsonObject;
  version?: number;
}

export interface ApiDockerSourceDefinition {
  id: string;
  name: string;
  dockerRepository: string;
  dockerImageTag: string;
  documentationUrl?: string;
}

/** config API: jobs/get. */
export interface ConfigJobInfo {
  job: { id: number; configType: string; configId: string; createdAt: number; updatedAt: number; status: string };
  attempts: ConfigAttemptInfo[];
}

export interface ConfigAttemptInfo {
  attempt: {
    id: number;
    status: string;
    createdAt: number;
    updatedAt: number;
    endedAt?: number;
    bytesSynced?: number;
    recordsSynced?: number;
    failureSummary?: { failures: Array<{ failureOrigin?: string; externalMessage?: string; timestamp: number }>; partialSuccess?: boolean };
  };
  logs?: { logLines: string[] };
  logType?: string;
}

/** config API: a stream of a sync catalog. */
export interface ConfigCatalogStream {
  stream: { name: string; jsonSchema?: JsonObject; supportedSyncModes?: string[]; namespace?: string } & JsonObject;
  config: { selected?: boolean; syncMode?: string; destinationSyncMode?: string; cursorField?: string[]; primaryKey?: string[][] } & JsonObject;
}

export interface ConfigSyncCatalog {
  streams: ConfigCatalogStream[];
}

/** config API: web_backend/connections/get (the fields used). */
export interface ConfigWebBackendConnection {
  connectionId: string;
  syncCatalog: ConfigSyncCatalog;
}

export interface ConfigStreamState {
  streamDescriptor: { name: string; namespace?: string };
  streamState?: unknown;
}

/** config API: state/get. */
export interface ConfigConnectionState {
  stateType: 'stream' | 'global' | 'legacy' | 'not_set';
  connectionId: string;
  streamState?: ConfigStreamState[];
  globalState?: unknown;
  state?: unknown;
}

/** config API: workspaces/get_organization_info. */
export interface ConfigOrganizationInfo {
  organizationId: string;
  organizationName: string;
}
