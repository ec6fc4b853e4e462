import type { DataKeyring } from '../../security/data-keyring.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import type { DeploymentUpstreams } from '../deployment-upstreams.ts';
import type { HostedConnectors } from '../hosted-connectors.ts';
import { createHostedOAuth, type HostedOAuth } from '../oauth/hosted-oauth.ts';
import { ActorTable } from './actor-table.ts';
import { BuilderProjects } from './builder-projects.ts';
import { ClearJobs } from './clear-jobs.ts';
import { ConfigurationVault } from './configuration-vault.ts';
import { ConfiguredActors } from './configured-actors.ts';
import { ConnectionStates } from './connection-states.ts';
import { ConnectionTagTable } from './connection-tag-table.ts';
import { ConnectionTags } from './connection-tags.ts';
import { ContainerDefinitionTable } from './container-definition-table.ts';
import { SourceActors } from './declarative-source-actors.ts';
import { DeclarativeSourceTypes } from './declarative-source-types.ts';
import { PublicDeclarativeSources } from './declarative-sources.ts';
import { DeclarativeTable } from './declarative-table.ts';
import { DestinationKinds } from './destination-kinds.ts';
import { declarativeDefinitions, typeDefinitions } from './fixed-definitions.ts';
import type { NetworkGuard } from '../sync/destinations/network-guard.ts';
import type { ActorSurroundings } from './public-actors.ts';
import { PublicConnections } from './public-connections.ts';
import { PublicDefinitions } from './public-definitions.ts';
import { PublicDestinations } from './public-destinations.ts';
import { PublicJobs } from './public-jobs.ts';
import { PublicOrganizations } from './public-organizations.ts';
import type { SyncJobs } from '../sync/sync-jobs.ts';
import type { SyncStates } from '../sync/sync-states.ts';
import { PublicSources } from './public-sources.ts';
import { PublicTags } from './public-tags.ts';
import { PublicWorkspaces } from './public-workspaces.ts';
import { SourceKinds } from './source-kinds.ts';
import { PublicStreams } from './stream-properties.ts';
import { TagTable } from './tag-table.ts';
import { TombstoneTable } from './tombstone-table.ts';
import { upstreamCheck } from './upstream-check.ts';
import type { OAuthTokens } from '../oauth/oauth-tokens.ts';
import { WebBackendConnections } from './web-backend-connections.ts';
import { WorkspaceResources } from './workspace-resources.ts';

/** The public cloud API's resources. */
export interface PublicApi {
  workspaces: PublicWorkspaces;
  sources: PublicSources;
  destinations: PublicDestinations;
  connections: PublicConnections;
  jobs: PublicJobs;
  organizations: PublicOrganizations;
  /** Workspaces' tags, which connections carry. */
  tags: PublicTags;
  /** The streams a source offers (the public API's stream properties). */
  streams: PublicStreams;
  /** The source and destination definitions of a workspace: the types this server runs, declarative and custom ones. */
  sourceDefinitions: PublicDefinitions;
  destinationDefinitions: PublicDefinitions;
  /** The config API's connection states and web backend connections. */
  states: ConnectionStates;
  webBackend: WebBackendConnections;
  /** Workspaces' custom declarative source definitions. */
  declarativeSources: PublicDeclarativeSources;
  /** The config API's builder projects of those definitions: their testing values. */
  builderProjects: BuilderProjects;
  /** OAuth apps, consents (initiateOAuth and the widget's) and the secrets they grant sources. */
  oauth: HostedOAuth;
}

export interface PublicApiDependencies {
  store: Store;
  /** The cloud API's database (openCloudDatabase). */
  cloudDb: SqlDriver;
  keyring: DataKeyring;
  runtime: Runtime;
  /** Upstream API root per connector type, for the sources' credential checks. */
  upstreams: DeploymentUpstreams;
  connectors: HostedConnectors;
  /** Where file destinations (SQLite, DuckDB) live. */
  dataDir: string;
  /** What destinations may connect to. */
  destinationGuard: NetworkGuard;
  syncJobs: SyncJobs;
  /** Each connection's per-stream sync state (the config API reads and replaces it). */
  syncStates: SyncStates;
  /** Tells the sync worker a job was created. */
  jobAdded: () => void;
  /** Sources' renewed OAuth tokens: checks start from them and keep what they renew. */
  oauthTokens: OAuthTokens;
  clock?: () => number;
}

/** Wires the public cloud API's resources over the store (workspaces) and the cloud API's database (the rest). */
export function createPublicApi(deps: PublicApiDependencies): PublicApi {
  const vault = new ConfigurationVault(deps.keyring);
  const check = upstreamCheck(deps.runtime, deps.upstreams, deps.oauthTokens);
  const definitions = new DeclarativeTable(deps.cloudDb);
  const declarativeTypes = new DeclarativeSourceTypes(definitions, deps.runtime, check, deps.upstreams.egress);
  const sourceKinds = new SourceKinds(deps.runtime, check, declarativeTypes);
  const destinationKinds = new DestinationKinds(deps.dataDir, deps.destinationGuard);
  const sources = new SourceActors(new ActorTable(deps.cloudDb, 'cloud_sources', 'source_id'), sourceKinds, vault, deps.store, definitions, declarativeTypes);
  const destinations = new ConfiguredActors(
    new ActorTable(deps.cloudDb, 'cloud_destinations', 'destination_id'),
    destinationKinds,
    vault,
    deps.store,
    'destination',
  );
  const tombstones = new TombstoneTable(deps.cloudDb, vault);
  const tagTable = new TagTable(deps.cloudDb);
  const connectionTags = new ConnectionTags(tagTable, new ConnectionTagTable(deps.cloudDb));
  const connections = new PublicConnections(deps.cloudDb, sources, destinations, deps.runtime, deps.syncStates, connectionTags, tombstones, vault);
  const containers = new ContainerDefinitionTable(deps.cloudDb);
  const sourceDefinitions = new PublicDefinitions('source', containers, deps.store, async (workspaceId) => [
    ...typeDefinitions('source', sourceKinds, deps.runtime),
    ...(await declarativeDefinitions(definitions, workspaceId)),
  ]);
  const destinationDefinitions = new PublicDefinitions('destination', containers, deps.store, async () =>
    typeDefinitions('destination', destinationKinds, deps.runtime),
  );
  const surroundings = (column: 'source_id' | 'destination_id', definitionsOfType: PublicDefinitions): ActorSurroundings => ({
    tombstones,
    connectionsUsing: (actorId) => connections.tombstonesUsing(column, actorId),
    refuseContainer: (workspaceId, definitionId) => definitionsOfType.refuseContainer(workspaceId, definitionId),
  });
  const oauth = createHostedOAuth({ ...deps, sourceKinds, declarativeTypes, definitions });
  const publicSources = new PublicSources(sources, surroundings('source_id', sourceDefinitions), oauth.secrets, deps.oauthTokens);
  const publicDestinations = new PublicDestinations(destinations, surroundings('destination_id', destinationDefinitions));
  const declarativeSources = new PublicDeclarativeSources(definitions, declarativeTypes, deps.store, () => sourceKinds.names(), deps.upstreams.egress, {
    tombstonesOfType: (sourceType) => publicSources.tombstonesOfType(sourceType),
    bury: (tx, buried, deletedAt) => tombstones.bury(tx, buried, deletedAt),
  });
  return {
    workspaces: new PublicWorkspaces(deps.store, deps.connectors, new WorkspaceResources(deps.cloudDb)),
    sources: publicSources,
    destinations: publicDestinations,
    connections,
    jobs: new PublicJobs(deps.syncJobs, deps.store, connections, deps.jobAdded, new ClearJobs(deps.cloudDb), deps.clock),
    organizations: new PublicOrganizations(deps.store),
    tags: new PublicTags(tagTable, deps.store),
    streams: new PublicStreams({
      streamsOfSource: (organizationId, sourceId) => connections.streamsOfSource(organizationId, sourceId),
      destinationExists: async (organizationId, destinationId) => void (await destinations.get(organizationId, destinationId)),
    }),
    sourceDefinitions,
    destinationDefinitions,
    states: new ConnectionStates(connections, deps.syncStates, deps.syncJobs),
    webBackend: new WebBackendConnections(connections, publicSources, publicDestinations, deps.syncJobs),
    declarativeSources,
    builderProjects: new BuilderProjects(deps.cloudDb, declarativeSources, vault),
    oauth,
  };
}
