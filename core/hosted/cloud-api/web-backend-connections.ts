import { ValidationError } from '../../errors.ts';
import type { SyncJobs } from '../sync/sync-jobs.ts';
import type {
  ConfigActorDefinitionVersion,
  ConfigWebBackendConnection,
  ConfigWebBackendConnectionRequest,
  ConfigWebBackendConnectionUpdate,
  PublicConnection,
} from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { configScheduleOf, scheduleOfUpdate } from './config-schedule.ts';
import { definitionImage } from './definition-image.ts';
import { type PublicConnections, STREAMS_LOC } from './public-connections.ts';
import type { PublicDestinations } from './public-destinations.ts';
import type { PublicSources } from './public-sources.ts';
import { catalogOf, catalogSelection } from './sync-catalog.ts';

type ConfigNamespace = ConfigWebBackendConnection['namespaceDefinition'];
type ConfigNonBreaking = ConfigWebBackendConnection['nonBreakingChangesPreference'];

/** The config API's spelling of the public API's namespace definitions and schema-change behaviours (they differ in two words). */
const NAMESPACES: Record<PublicConnection['namespaceDefinition'], ConfigNamespace> = {
  source: 'source',
  destination: 'destination',
  custom_format: 'customformat',
};
const NON_BREAKING: Record<PublicConnection['nonBreakingSchemaUpdatesBehavior'], ConfigNonBreaking> = {
  ignore: 'ignore',
  disable_connection: 'disable',
  propagate_columns: 'propagate_columns',
  propagate_fully: 'propagate_fully',
};

const BODY: Loc = ['body'];

/**
 * Connections as the config API's web backend reads and updates them: the connection with its sync
 * catalog (every stream of its source, selected or not), its two ends, and its latest job. An update
 * goes through PublicConnections' patch, so the public API's rules hold for both.
 */
export class WebBackendConnections {
  constructor(
    private readonly connections: PublicConnections,
    private readonly sources: PublicSources,
    private readonly destinations: PublicDestinations,
    private readonly jobs: SyncJobs,
  ) {}

  async get(organizationId: string, input: ConfigWebBackendConnectionRequest): Promise<ConfigWebBackendConnection> {
    return this.read(organizationId, await this.connections.get(organizationId, input.connectionId), input.withRefreshedCatalog === true);
  }

  /**
   * The fields given; a syncCatalog replaces the streams selected (a stream's selected fields and
   * mappers it leaves out kept). Fields Plugboard has no use for are ignored.
   */
  async update(organizationId: string, input: ConfigWebBackendConnectionUpdate): Promise<ConfigWebBackendConnection> {
    const current = (await this.connections.get(organizationId, input.connectionId)).configurations.streams ?? [];
    const schedule = scheduleOfUpdate(input, BODY);
    const selection = input.syncCatalog && catalogSelection(input.syncCatalog, current, [...BODY, 'syncCatalog', 'streams']);
    const namespace = input.namespaceDefinition && publicName(NAMESPACES, input.namespaceDefinition);
    const nonBreaking = input.nonBreakingChangesPreference && publicName(NON_BREAKING, input.nonBreakingChangesPreference);
    const connection = await this.connections
      .patch(organizationId, input.connectionId, {
        name: input.name,
        prefix: input.prefix,
        status: input.status,
        namespaceDefinition: namespace,
        namespaceFormat: input.namespaceFormat,
        nonBreakingSchemaUpdatesBehavior: nonBreaking,
        schedule,
        configurations: selection && { streams: selection.streams },
        tags: input.tags ?? undefined,
      })
      .catch((error: unknown) => {
        throw selection && error instanceof ValidationError ? selection.atEntries(error, STREAMS_LOC) : error;
      });
    return this.read(organizationId, connection, false);
  }

  private async read(organizationId: string, connection: PublicConnection, refreshed: boolean): Promise<ConfigWebBackendConnection> {
    const id = connection.connectionId;
    const [available, source, destination, live, [latest]] = await Promise.all([
      this.connections.sourceStreams(organizationId, id),
      this.sources.get(organizationId, connection.sourceId),
      this.destinations.get(organizationId, connection.destinationId),
      this.jobs.live(id),
      this.jobs.list({ connectionId: id, order: 'DESC', limit: 1, offset: 0 }),
    ]);
    const selected = connection.configurations.streams ?? [];
    const gone = selected.filter((stream) => !available.some((offered) => offered.name === stream.name));
    return {
      connectionId: id,
      name: connection.name,
      namespaceDefinition: NAMESPACES[connection.namespaceDefinition],
      ...(connection.namespaceFormat === undefined ? {} : { namespaceFormat: connection.namespaceFormat }),
      prefix: connection.prefix,
      sourceId: connection.sourceId,
      destinationId: connection.destinationId,
      syncCatalog: catalogOf(available, selected),
      ...configScheduleOf(connection.schedule),
      // A live connection (a deleted one is not found): active or inactive.
      status: connection.status === 'inactive' ? 'inactive' : 'active',
      operationIds: [],
      operations: [],
      source: {
        sourceDefinitionId: source.definitionId,
        sourceId: source.sourceId,
        workspaceId: source.workspaceId,
        connectionConfiguration: source.configuration,
        name: source.name,
        sourceName: source.sourceType,
        createdAt: source.createdAt,
      },
      destination: {
        destinationDefinitionId: destination.definitionId,
        destinationId: destination.destinationId,
        workspaceId: destination.workspaceId,
        connectionConfiguration: destination.configuration,
        name: destination.name,
        destinationName: destination.destinationType,
        createdAt: destination.createdAt,
      },
      ...(latest ? { latestSyncJobCreatedAt: Math.floor(Date.parse(latest.created_at) / 1000), latestSyncJobStatus: latest.status } : {}),
      isSyncing: live !== undefined,
      ...(refreshed
        ? { catalogDiff: { transforms: gone.map((stream) => ({ transformType: 'remove_stream' as const, streamDescriptor: { name: stream.name } })) } }
        : {}),
      // A stream gone from the source is one the connection can no longer sync: a breaking change.
      schemaChange: gone.length > 0 ? 'breaking' : 'no_change',
      notifySchemaChanges: false,
      notifySchemaChangesByEmail: false,
      nonBreakingChangesPreference: NON_BREAKING[connection.nonBreakingSchemaUpdatesBehavior],
      createdAt: connection.createdAt,
      sourceActorDefinitionVersion: definitionVersion(definitionImage('source', source.sourceType)),
      destinationActorDefinitionVersion: definitionVersion(definitionImage('destination', destination.destinationType)),
      tags: connection.tags,
      onDemandEnabled: false,
    };
  }
}

/** The public API's name for a value the config API spells its own way. */
function publicName<K extends string, V extends string>(names: Record<K, V>, configName: V): K {
  return (Object.keys(names) as K[]).find((key) => names[key] === configName)!;
}

/** No Docker image runs a Plugboard source or destination: the repository names its type, and it is always the server's own, current one. */
function definitionVersion(dockerRepository: string): ConfigActorDefinitionVersion {
  return {
    dockerRepository,
    dockerImageTag: 'latest',
    supportsRefreshes: false,
    supportState: 'supported',
    isVersionOverrideApplied: false,
    supportsFileTransfer: false,
    supportsDataActivation: false,
  };
}
