import type { DataKeyring } from '../../security/data-keyring.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import type { HostedConnectors } from '../hosted-connectors.ts';
import { ActorTable } from './actor-table.ts';
import { ConfigurationVault } from './configuration-vault.ts';
import { ConfiguredActors } from './configured-actors.ts';
import { DestinationKinds } from './destination-kinds.ts';
import { PublicConnections } from './public-connections.ts';
import { PublicDestinations } from './public-destinations.ts';
import { PublicJobs } from './public-jobs.ts';
import type { SyncJobs } from '../sync/sync-jobs.ts';
import { PublicSources } from './public-sources.ts';
import { PublicWorkspaces } from './public-workspaces.ts';
import { SourceKinds } from './source-kinds.ts';
import { upstreamCheck } from './upstream-check.ts';
import { WorkspaceResources } from './workspace-resources.ts';

/** The public cloud API's resources. */
export interface PublicApi {
  workspaces: PublicWorkspaces;
  sources: PublicSources;
  destinations: PublicDestinations;
  connections: PublicConnections;
  jobs: PublicJobs;
}

export interface PublicApiDependencies {
  store: Store;
  /** The cloud API's database (openCloudDatabase). */
  cloudDb: SqlDriver;
  keyring: DataKeyring;
  runtime: Runtime;
  /** Upstream API root per connector type, for the sources' credential checks. */
  baseUrls: Record<string, string | undefined>;
  connectors: HostedConnectors;
  /** Where file destinations (SQLite, DuckDB) live. */
  dataDir: string;
  syncJobs: SyncJobs;
  /** Tells the sync worker a job was created. */
  jobAdded: () => void;
  clock?: () => number;
}

/** Wires the public cloud API's resources over the store (workspaces) and the cloud API's database (the rest). */
export function createPublicApi(deps: PublicApiDependencies): PublicApi {
  const vault = new ConfigurationVault(deps.keyring);
  const sources = new ConfiguredActors(
    new ActorTable(deps.cloudDb, 'cloud_sources', 'source_id'),
    new SourceKinds(deps.runtime, upstreamCheck(deps.runtime, deps.baseUrls)),
    vault,
    deps.store,
    'source',
  );
  const destinations = new ConfiguredActors(
    new ActorTable(deps.cloudDb, 'cloud_destinations', 'destination_id'),
    new DestinationKinds(deps.dataDir),
    vault,
    deps.store,
    'destination',
  );
  const connections = new PublicConnections(deps.cloudDb, sources, destinations, deps.runtime);
  return {
    workspaces: new PublicWorkspaces(deps.store, deps.connectors, new WorkspaceResources(deps.cloudDb)),
    sources: new PublicSources(sources),
    destinations: new PublicDestinations(destinations),
    connections,
    jobs: new PublicJobs(deps.syncJobs, deps.store, connections, deps.jobAdded, deps.clock),
  };
}
