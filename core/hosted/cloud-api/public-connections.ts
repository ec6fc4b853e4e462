import { randomUUID } from 'node:crypto';
import { invalidField, NotFoundError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { requireWorkspace } from '../permissions/request-access.ts';
import { type SyncStreamSpec, syncStreamsOf } from '../sync/sync-streams.ts';
import type { SyncStates } from '../sync/sync-states.ts';
import { configurationInNamespace, connectionNamespace } from '../sync/destinations/destination-namespace.ts';
import type { ConnectorSyncSource, SyncSource, SyncTarget } from '../sync/sync-target.ts';
import type { PublicConnection, PublicConnectionCreateRequest, PublicConnectionPatchRequest, PublicStreamConfiguration } from '../types.generated.ts';
import type { ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import { checkSchedule, nextRunAt } from './connection-schedule.ts';
import { selectStreams, streamsAnswer } from './connection-streams.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import { MapperKeyVault, type StoredStream } from './mapper-key-vault.ts';
import { unmaskMapperKeys } from './mapper-secrets.ts';
import { type ConnectionChanges, type ConnectionRecord, ConnectionTable } from './connection-table.ts';
import type { ConnectionTags } from './connection-tags.ts';
import type { DestinationKind } from './destination-kinds.ts';
import { epochSeconds } from './public-actors.ts';
import type { PublicPage } from './public-workspaces.ts';
import type { ResourceFilter } from './resource-filter.ts';
import type { SourceKind } from './source-kinds.ts';
import type { Tombstone, TombstoneTable } from './tombstone-table.ts';

/** Where a refusal of the streams given points (the config API moves it to its catalog's entries). */
export const STREAMS_LOC = ['body', 'configurations', 'streams'];
const TAGS_LOC = ['body', 'tags'];

/**
 * Connections through the public cloud API: a source and a destination of one workspace, the source's
 * streams it syncs (each in a mode the stream supports), a table prefix, a schedule, and the tags of
 * its workspace it carries. Scoped to the caller's organization like the rest; the sync engine reads
 * one through `syncTarget`. A deleted one leaves its tombstone (status `deprecated`), which only
 * `includeDeleted` lists.
 */
export class PublicConnections {
  private readonly table: ConnectionTable;
  private readonly mapperKeys: MapperKeyVault;

  constructor(
    driver: SqlDriver,
    private readonly sources: ConfiguredActors<SourceKind>,
    private readonly destinations: ConfiguredActors<DestinationKind>,
    private readonly runtime: Runtime,
    /** Forgotten when the prefix changes: the state vouches for tables of the old name. */
    private readonly states: SyncStates,
    private readonly tags: ConnectionTags,
    private readonly tombstones: TombstoneTable,
    vault: ConfigurationVault,
  ) {
    this.table = new ConnectionTable(driver);
    this.mapperKeys = new MapperKeyVault(vault);
  }

  /** A page of the organization's connections (`tagIds`: those carrying any of them; `includeDeleted`: tombstones too). */
  async list(organizationId: string, filter: ResourceFilter): Promise<PublicPage<PublicConnection>> {
    const found = filter.includeDeleted
      ? await this.tombstones.answers<PublicConnection>('connection', organizationId, filter, async (id) => {
          const connection = await this.table.get(id);
          return connection && this.untagged(connection);
        })
      : await this.livePage(organizationId, filter);
    return { items: await this.withTags(found.items), more: found.more };
  }

  /** The sync streams a source of the organization offers (the public API's stream properties); a 404 when it is not the organization's. */
  async streamsOfSource(organizationId: string, sourceId: string): Promise<SyncStreamSpec[]> {
    return this.streamsOf((await this.sources.get(organizationId, sourceId)).kind);
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
    const tagIds = input.tags ? await this.tags.accepted(source.workspaceId, input.tags, TAGS_LOC) : [];
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
      streams: this.storedStreams(source.kind, input.configurations?.streams, []),
      namespaceDefinition: input.namespaceDefinition ?? 'destination',
      namespaceFormat: input.namespaceFormat ?? null,
      nonBreakingChanges: input.nonBreakingSchemaUpdatesBehavior ?? 'ignore',
      nextRunAt: nextRunAt(schedule, status, now),
      createdAt: now,
    };
    await this.table.insert(connection);
    if (tagIds.length > 0) await this.tags.replace(connection.id, tagIds);
    return this.toPublic(connection, source.kind);
  }

  /** The fields given; `configurations` replaces the streams selected, `tags` the tags. A new schedule or status moves the next run. */
  async patch(organizationId: string, id: string, input: PublicConnectionPatchRequest): Promise<PublicConnection> {
    const connection = await this.find(organizationId, id);
    const sourceKind = await this.sources.kindOf(connection.sourceId);
    const schedule = input.schedule ? checkSchedule(input.schedule, ['body', 'schedule']) : undefined;
    const tagIds = input.tags ? await this.tags.accepted(connection.workspaceId, input.tags, TAGS_LOC) : undefined;
    const changes: ConnectionChanges = {
      name: input.name,
      status: input.status,
      schedule,
      prefix: input.prefix,
      // Any write seals the keys an older row holds in clear.
      streams: input.configurations
        ? this.storedStreams(sourceKind, input.configurations.streams, connection.streams)
        : this.mapperKeys.sealLeftInClear(connection.streams),
      namespaceDefinition: input.namespaceDefinition,
      namespaceFormat: input.namespaceFormat,
      nonBreakingChanges: input.nonBreakingSchemaUpdatesBehavior,
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as ConnectionChanges;
    const updated: ConnectionRecord = { ...connection, ...defined };
    if (schedule || input.status) updated.nextRunAt = nextRunAt(updated.schedule, updated.status, Date.now());
    if (!(await this.table.update(connection.id, { ...defined, nextRunAt: updated.nextRunAt }))) throw notFound(id);
    if (tagIds) await this.tags.replace(connection.id, tagIds);
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

  /** Deletes it, leaving its tombstone. */
  async delete(organizationId: string, id: string): Promise<void> {
    const connection = await this.find(organizationId, id);
    const tombstone = await this.tombstoneOf(connection);
    if (!(await this.table.delete(connection.id, (tx) => this.tombstones.bury(tx, [tombstone], Date.now())))) throw notFound(id);
  }

  /** The tombstones of the connections using a source (`source_id`) or destination (`destination_id`), deleted with it. */
  async tombstonesUsing(column: 'source_id' | 'destination_id', actorId: string): Promise<Tombstone[]> {
    return Promise.all((await this.table.using(column, actorId)).map((connection) => this.tombstoneOf(connection)));
  }

  /**
   * What the sync engine runs for the connection: the source's connector type and what it reads with
   * (syncSource), the destination's configuration, secrets opened, its schema the connection's
   * namespace, and the streams, their mappers' AES keys opened (only here). A connection deleted
   * since is not found.
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
      streams: this.mapperKeys.open(connection.streams),
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

  /** The streams given as the connection stores them: checked (selectStreams), a masked AES key the stored one, every key sealed. */
  private storedStreams(kind: SourceKind | undefined, given: PublicStreamConfiguration[] | undefined, stored: readonly StoredStream[]): StoredStream[] {
    const unmasked = unmaskMapperKeys(given, stored, STREAMS_LOC);
    return this.mapperKeys.seal(selectStreams(this.streamsOf(kind), unmasked.streams, STREAMS_LOC), unmasked.kept);
  }

  private async find(organizationId: string, id: string): Promise<ConnectionRecord> {
    const connection = await this.table.get(id.toLowerCase());
    if (!connection || connection.organizationId !== organizationId) throw notFound(id);
    requireWorkspace(connection.workspaceId);
    return connection;
  }

  /** The source's sync streams; none when its connector type is no longer loaded. */
  private streamsOf(kind: SourceKind | undefined) {
    const type = kind?.connectorType;
    if (type === undefined) return [];
    return this.runtime.hasConnector(type) ? syncStreamsOf(this.runtime.plugin(type)) : [];
  }

  private async livePage(organizationId: string, filter: ResourceFilter): Promise<PublicPage<PublicConnection>> {
    const rows = await this.table.list(organizationId, { ...filter, limit: filter.limit + 1 });
    const items = await Promise.all(rows.slice(0, filter.limit).map((row) => this.untagged(row)));
    return { items, more: rows.length > filter.limit };
  }

  /** What stays of it once deleted: its answer, `deprecated` as Airbyte answers a deleted connection (its tags are read with it, as they are then). */
  private async tombstoneOf(connection: ConnectionRecord): Promise<Tombstone> {
    const answer = { ...(await this.untagged(connection)), status: 'deprecated' as const };
    return {
      kind: 'connection',
      id: connection.id,
      organizationId: connection.organizationId,
      workspaceId: connection.workspaceId,
      createdAt: connection.createdAt,
      answer,
    };
  }

  private async toPublic(connection: ConnectionRecord, sourceKind?: SourceKind): Promise<PublicConnection> {
    const [answer] = await this.withTags([await this.untagged(connection, sourceKind)]);
    return answer!;
  }

  /** Each answer with the tags its connection carries now. */
  private async withTags(answers: PublicConnection[]): Promise<PublicConnection[]> {
    const tags = await this.tags.of(answers.map((answer) => answer.connectionId));
    return answers.map((answer) => ({ ...answer, tags: tags.get(answer.connectionId) ?? [] }));
  }

  /** The answer but its tags (read apart, for a page at once). */
  private async untagged(connection: ConnectionRecord, sourceKind?: SourceKind): Promise<PublicConnection> {
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
