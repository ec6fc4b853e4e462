import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { EncryptedValue } from '../../stores/types.ts';
import { type ResourceFilter, resourceWhere } from './resource-filter.ts';
import { updateColumns } from './sql-columns.ts';

/** A stored source or destination: its configuration sealed (see ConfigurationVault). */
export interface ActorRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  /** The type the API names it by (`slack`, `chat`, `postgres`...). */
  type: string;
  configuration: EncryptedValue;
  /** JSON: the endpoint its secrets were entered for; null for the one its configuration and definition name now (see secret-binding.ts). */
  secret_endpoint: string | null;
  /** Epoch milliseconds. */
  created_at: number;
}

interface Row extends Omit<ActorRow, 'configuration' | 'created_at'> {
  key_id: string;
  ciphertext: string;
  /** PostgreSQL answers a BIGINT as a string. */
  created_at: number | string;
}

/**
 * The rows of cloud_sources or cloud_destinations. Deleting one deletes the connections using it
 * first, in the same transaction, as Airbyte does: a connection never names a missing end.
 */
export class ActorTable {
  constructor(
    private readonly driver: SqlDriver,
    private readonly table: 'cloud_sources' | 'cloud_destinations',
    /** The cloud_connections column that names rows of this table. */
    private readonly connectionColumn: 'source_id' | 'destination_id',
  ) {}

  async insert(row: ActorRow): Promise<void> {
    await this.driver.run(
      `INSERT INTO ${this.table} (id, organization_id, workspace_id, name, type, key_id, ciphertext, secret_endpoint, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.organization_id,
        row.workspace_id,
        row.name,
        row.type,
        row.configuration.key_id,
        row.configuration.ciphertext,
        row.secret_endpoint,
        row.created_at,
      ],
    );
  }

  async get(id: string): Promise<ActorRow | undefined> {
    const row = await this.driver.get<Row>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    return row && toActorRow(row);
  }

  /** One more row than the page when one follows (the caller tells `more` from it). */
  async list(organizationId: string, filter: Omit<ResourceFilter, 'tagIds'>): Promise<ActorRow[]> {
    const where = resourceWhere(organizationId, filter);
    const rows = await this.driver.all<Row>(`SELECT * FROM ${this.table} WHERE ${where.sql} ORDER BY created_at, id LIMIT ? OFFSET ?`, [
      ...where.params,
      filter.limit,
      filter.offset,
    ]);
    return rows.map(toActorRow);
  }

  /** The ids of the rows of a type (a declarative definition's sources). */
  async idsOfType(type: string): Promise<string[]> {
    return (await this.driver.all<{ id: string }>(`SELECT id FROM ${this.table} WHERE type = ? ORDER BY created_at, id`, [type])).map((row) => row.id);
  }

  /** False when the row is gone. */
  update(id: string, changes: { name?: string; configuration?: EncryptedValue; secretEndpoint?: string }): Promise<boolean> {
    return updateColumns(this.driver, this.table, id, {
      name: changes.name,
      key_id: changes.configuration?.key_id,
      ciphertext: changes.configuration?.ciphertext,
      secret_endpoint: changes.secretEndpoint,
    });
  }

  /**
   * The connections ids removed with it; false `deleted` when the row was already gone. `bury` runs
   * in the same transaction (the tombstones of it and of its connections).
   */
  delete(id: string, bury: (tx: SqlDriver) => Promise<void>): Promise<{ deleted: boolean; connectionIds: string[] }> {
    return this.driver.transaction(async (tx) => {
      const connections = await tx.all<{ id: string }>(`SELECT id FROM cloud_connections WHERE ${this.connectionColumn} = ?`, [id]);
      await tx.run(`DELETE FROM cloud_connections WHERE ${this.connectionColumn} = ?`, [id]);
      const { changes } = await tx.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
      // A source's renewed OAuth tokens go with it (a destination has none).
      if (this.table === 'cloud_sources') await tx.run('DELETE FROM oauth_tokens WHERE credential_key = ?', [`source:${id}`]);
      if (changes > 0) await bury(tx);
      return { deleted: changes > 0, connectionIds: connections.map((row) => row.id) };
    });
  }
}

function toActorRow({ key_id, ciphertext, created_at, ...row }: Row): ActorRow {
  return { ...row, configuration: { key_id, ciphertext }, created_at: Number(created_at) };
}
