import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { PublicConnection } from '../types.generated.ts';
import type { ConnectionSchedule } from './connection-schedule.ts';
import type { StoredStream } from './mapper-key-vault.ts';
import { type ResourceFilter, resourceWhere } from './resource-filter.ts';
import { updateColumns } from './sql-columns.ts';

/** A stored connection. Times are epoch milliseconds. */
export interface ConnectionRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  name: string;
  sourceId: string;
  destinationId: string;
  status: 'active' | 'inactive';
  schedule: ConnectionSchedule;
  prefix: string;
  /** Their AES keys sealed (see MapperKeyVault). */
  streams: StoredStream[];
  namespaceDefinition: PublicConnection['namespaceDefinition'];
  namespaceFormat: string | null;
  nonBreakingChanges: PublicConnection['nonBreakingSchemaUpdatesBehavior'];
  nextRunAt: number | null;
  createdAt: number;
}

export type ConnectionChanges = Partial<Omit<ConnectionRecord, 'id' | 'organizationId' | 'workspaceId' | 'sourceId' | 'destinationId' | 'createdAt'>>;

interface Row {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  source_id: string;
  destination_id: string;
  status: ConnectionRecord['status'];
  schedule: string;
  prefix: string;
  streams: string;
  namespace_definition: ConnectionRecord['namespaceDefinition'];
  namespace_format: string | null;
  non_breaking_changes: ConnectionRecord['nonBreakingChanges'];
  /** PostgreSQL answers a BIGINT as a string. */
  next_run_at: number | string | null;
  created_at: number | string;
}

/** The rows of cloud_connections (the streams, their mappers' keys sealed, and schedule as JSON). */
export class ConnectionTable {
  constructor(private readonly driver: SqlDriver) {}

  async insert(c: ConnectionRecord): Promise<void> {
    await this.driver.run(
      `INSERT INTO cloud_connections (id, organization_id, workspace_id, name, source_id, destination_id, status, schedule, prefix, streams,
         namespace_definition, namespace_format, non_breaking_changes, next_run_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        c.id,
        c.organizationId,
        c.workspaceId,
        c.name,
        c.sourceId,
        c.destinationId,
        c.status,
        JSON.stringify(c.schedule),
        c.prefix,
        JSON.stringify(c.streams),
        c.namespaceDefinition,
        c.namespaceFormat,
        c.nonBreakingChanges,
        c.nextRunAt,
        c.createdAt,
      ],
    );
  }

  async get(id: string): Promise<ConnectionRecord | undefined> {
    const row = await this.driver.get<Row>('SELECT * FROM cloud_connections WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** One more row than the page when one follows (the caller tells `more` from it). */
  async list(organizationId: string, filter: ResourceFilter): Promise<ConnectionRecord[]> {
    const where = resourceWhere(organizationId, filter);
    const rows = await this.driver.all<Row>(`SELECT * FROM cloud_connections WHERE ${where.sql} ORDER BY created_at, id LIMIT ? OFFSET ?`, [
      ...where.params,
      filter.limit,
      filter.offset,
    ]);
    return rows.map(toRecord);
  }

  /** The connections whose source (`source_id`) or destination (`destination_id`) that is. */
  async using(column: 'source_id' | 'destination_id', actorId: string): Promise<ConnectionRecord[]> {
    return (await this.driver.all<Row>(`SELECT * FROM cloud_connections WHERE ${column} = ? ORDER BY created_at, id`, [actorId])).map(toRecord);
  }

  /** False when the row is gone. */
  update(id: string, changes: ConnectionChanges): Promise<boolean> {
    const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
    return updateColumns(this.driver, 'cloud_connections', id, {
      name: changes.name,
      status: changes.status,
      schedule: json(changes.schedule),
      prefix: changes.prefix,
      streams: json(changes.streams),
      namespace_definition: changes.namespaceDefinition,
      namespace_format: changes.namespaceFormat,
      non_breaking_changes: changes.nonBreakingChanges,
      next_run_at: changes.nextRunAt,
    });
  }

  /** `bury` runs in the deleting transaction (the connection's tombstone). False when the row was already gone. */
  delete(id: string, bury: (tx: SqlDriver) => Promise<void>): Promise<boolean> {
    return this.driver.transaction(async (tx) => {
      const { changes } = await tx.run('DELETE FROM cloud_connections WHERE id = ?', [id]);
      if (changes > 0) await bury(tx);
      return changes > 0;
    });
  }
}

function toRecord(row: Row): ConnectionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    name: row.name,
    sourceId: row.source_id,
    destinationId: row.destination_id,
    status: row.status,
    schedule: JSON.parse(row.schedule) as ConnectionSchedule,
    prefix: row.prefix,
    streams: JSON.parse(row.streams) as StoredStream[],
    namespaceDefinition: row.namespace_definition,
    namespaceFormat: row.namespace_format,
    nonBreakingChanges: row.non_breaking_changes,
    nextRunAt: row.next_run_at === null ? null : Number(row.next_run_at),
    createdAt: Number(row.created_at),
  };
}
