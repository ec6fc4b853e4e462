import { randomUUID } from 'node:crypto';
import { invalidField, NotFoundError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { type SyncStreamSpec, syncStreamsOf } from '../sync/sync-streams.ts';
import type { SyncStates } from '../sync/sync-states.ts';
import { configurationInNamespace, connectionNamespace } from '../sync/destinations/destination-namespace.ts';
import type { ConnectorSyncSource, SyncSource, SyncTarget } from '../sync/sync-target.ts';
import type { PublicConnection, PublicConnectionCreateRequest, PublicConnectionPatchRequest } from '../types.generated.ts';
import type { ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import { checkSchedule, nextRunAt } from './connection-schedule.ts';
import { selectStreams, streamsAnswer } from './connection-streams.ts';
import { type ConnectionChanges, type ConnectionRecord, ConnectionTable } from './connection-table.ts';
import type { DestinationKind } from './destination-kinds.ts';
import { epochSeconds } from './public-actors.ts';
import type { PublicPage } from './public-workspaces.ts';
import type { SourceKind } from './source-kinds.ts';

const STREAMS_LOC = ['body', 'configurations', 'streams'];

/**
 * Connections through the public cloud API: a source and a destination of one workspace, the source's
 * streams it syncs (each in a mode the stream supports), a table prefix, and a schedule. Scoped to the
 * caller's organization like the rest; the sync engine reads one through `syncTarget`.
 */
export class PublicConnections {
  private readonly table: ConnectionTable;

  constructor(
    driver: SqlDriver,
    private readonly sources: ConfiguredActors<SourceKind>,
    private readonly destinations: ConfiguredActors<DestinationKind>,
    private readonly runtime: Runtime,
    /** Forgotten when the prefix changes: the state vouches for tables of the old name. */
    private readonly states: SyncStates,
  ) {
    this.table = new ConnectionTable(driver);
  }

  async list(organizationId: string, page: { workspaceIds?: string[]; limit: number; offset: number }): Promise<PublicPage<PublicConnection>> {
    const rows = await this.table.list(organizationId, { ...page, limit: page.limit + 1 });
    const items = await Promise.all(rows.slice(0, page.limit).map((row) => this.toPublic(row)));
    return { items, more: rows.length > page.limit };
  }

  async get(organizationId: string, id: string): Promise<PublicConnection> {
    return this.toPublic(await this.find(organizationId, id));
  }

  async create(organizationId: string, input: PublicConnectionCreateRequest): Promise<PublicConnection> {
    const source = await this.sources.get(organizationId, input.sourceId);
    const destination = await this.destinations.get(organizationId, input.destinationId);
    if (destination.workspaceId !== source.workspaceId) {
      throw invalidField(
        ['body', 'destinationId'],
        `the destination is in another workspace than the source (${source.workspaceId})`,
        'value_error.workspace_mismatch',
      );
    }
    const schedule = input.schedule ? checkSchedule(input.schedule, ['body', 'schedule']) : { scheduleType: 'manual' as const };
    const status = input.status ?? 'active';
    const now = Date.now();
    const connection: ConnectionRecord = {
      id: randomUUID(),
      organizationId,
      workspaceId: source.workspaceId,
      name: input.name ?? `${source.name} → ${destination.name}`,
      sourceId: source.id,
      destinationId: destination.id,
      status,
      schedule,
      prefix: input.prefix ?? '',
      streams: selectStreams(this.streamsOf(source.kind), input.configurations?.streams, STREAMS_LOC),
      namespaceDefinition: input.namespaceDefinition ?? 'destination',
      namespaceFormat: input.namespaceFormat ?? null,
      nonBreakingChanges: input.nonBreakingSchemaUpdatesBehavior ?? 'ignore',
      nextRunAt: nextRunAt(schedule, status, now),
      createdAt: now,
    };
    await this.table.insert(connection);
    return this.toPublic(connection, source.kind);
  }

  /** The fields given; `configurations` replaces the streams selected. A new schedule or status moves the next run. */
  async patch(organizationId: string, id: string, input: PublicConnectionPatchRequest): Promise<PublicConnection> {
    const connection = await this.find(organizationId, id);
    const sourceKind = await this.sources.kindOf(connection.sourceId);
    const schedule = input.schedule ? checkSchedule(input.schedule, ['body', 'schedule']) : undefined;
    const changes: ConnectionChanges = {
      name: input.name,
      status: input.status,
      schedule,
      prefix: input.prefix,
      streams: input.configurations ? selectStreams(this.streamsOf(sourceKind), input.configurations.streams, STREAMS_LOC) : undefined,
      namespaceDefinition: input.namespaceDefinition,
      namespaceFormat: input.namespaceFormat,
      nonBreakingChanges: input.nonBreakingSchemaUpdatesBehavior,
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as ConnectionChanges;
    const updated: ConnectionRecord = { ...connection, ...defined };
    if (schedule || input.status) updated.nextRunAt = nextRunAt(updated.schedule, updated.status, Date.now());
    if (!(await this.table.update(connection.id, { ...defined, nextRunAt: updated.nextRunAt }))) throw notFound(id);
    // Tables named anew (another prefix or namespace) start empty: incremental streams read from the start again.
    const namespace = (of: ConnectionRecord) => connectionNamespace(of.namespaceDefinition, of.namespaceFormat);
    if (updated.prefix !== connection.prefix || namespace(updated) !== namespace(connection)) await this.states.clear(connection.id);
    return this.toPublic(updated, sourceKind);
  }

  /** Whether the connection still exists (a running sync of a deleted one stops). */
  async exists(connectionId: string): Promise<boolean> {
    return (await this.table.get(connectionId)) !== undefined;
  }

  /** The connection's workspace (ConnectionLookup, for jobs); a 404 when it is not the organization's. */
  async workspaceOf(organizationId: string, id: string): Promise<string> {
    return (await this.find(organizationId, id)).workspaceId;
  }

  /** The sync streams the connection's source offers (the config API's catalog and state checks); a 404 when it is not the organization's. */
  async sourceStreams(organizationId: string, id: string): Promise<SyncStreamSpec[]> {
    const connection = await this.find(organizationId, id);
    return this.streamsOf(await this.sources.kindOf(connection.sourceId));
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const connection = await this.find(organizationId, id);
    if (!(await this.table.delete(connection.id))) throw notFound(id);
  }

  /**
   * What the sync engine runs for the connection: the source's connector type and what it reads with
   * (syncSource), and the destination's configuration, secrets opened, its schema the connection's
   * namespace. A connection deleted since is not found.
   */
  async syncTarget(connectionId: string): Promise<SyncTarget> {
    const connection = await this.table.get(connectionId);
    const source = connection && (await this.sources.open(connection.sourceId));
    const destination = connection && (await this.destinations.open(connection.destinationId));
    if (!connection || !source || !destination) throw notFound(connectionId);
    this.sources.assertSecretsBound(source);
    this.destinations.assertSecretsBound(destination);
    return {
      connectionId: connection.id,
      workspaceId: connection.workspaceId,
      prefix: connection.prefix,
      streams: connection.streams,
      source: this.syncSource(source),
      destination: {
        destinationId: destination.id,
        destinationType: destination.kind.destinationType,
        configuration: configurationInNamespace(
          destination.kind.destinationType,
          destination.configuration,
          connectionNamespace(connection.namespaceDefinition, connection.namespaceFormat),
        ),
      },
    };
  }

  /**
   * What the source is read with: a Plugboard connector's credentials and settings (its configuration
   * less the type and credentials), or an Airbyte manifest's configuration, a renewal of which is kept.
   */
  private syncSource(source: ConfiguredActor<SourceKind>): SyncSource {
    const { id: sourceId, kind, configuration } = source;
    if ('manifestConfigOf' in kind) {
      const keepConfig = (config: Record<string, unknown>) => this.sources.keepRenewed(source, config);
      return { sourceId, connectorType: kind.connectorType, config: kind.manifestConfigOf(configuration), keepConfig };
    }
    const { credentials: _credentials, sourceType: _type, ...settings } = configuration;
    return { sourceId, connectorType: kind.connectorType, credentials: kind.credentialsOf(configuration) as ConnectorSyncSource['credentials'], settings };
  }

  private async find(organizationId: string, id: string): Promise<ConnectionRecord> {
    const connection = await this.table.get(id.toLowerCase());
    if (!connection || connection.organizationId !== organizationId) throw notFound(id);
    return connection;
  }

  /** The source's sync streams; none when its connector type is no longer loaded. */
  private streamsOf(kind: SourceKind | undefined) {
    const type = kind?.connectorType;
    if (type === undefined) return [];
    return this.runtime.hasConnector(type) ? syncStreamsOf(this.runtime.plugin(type)) : [];
  }

  private async toPublic(connection: ConnectionRecord, sourceKind?: SourceKind): Promise<PublicConnection> {
    const kind = sourceKind ?? (await this.sources.kindOf(connection.sourceId));
    return {
      connectionId: connection.id,
      name: connection.name,
      sourceId: connection.sourceId,
      destinationId: connection.destinationId,
      workspaceId: connection.workspaceId,
      status: connection.status,
      schedule: connection.schedule,
      nonBreakingSchemaUpdatesBehavior: connection.nonBreakingChanges,
      namespaceDefinition: connection.namespaceDefinition,
      ...(connection.namespaceFormat === null ? {} : { namespaceFormat: connection.namespaceFormat }),
      prefix: connection.prefix,
      configurations: { streams: streamsAnswer(this.streamsOf(kind), connection.streams) },
      createdAt: epochSeconds(connection.createdAt),
      tags: [],
    };
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Connection ${id} not found`, 'connection_not_found');
}
