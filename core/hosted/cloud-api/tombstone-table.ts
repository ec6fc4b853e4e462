import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import type { PublicPage } from './public-workspaces.ts';
import { type ResourceFilter, resourceWhere } from './resource-filter.ts';

export type TombstoneKind = 'source' | 'destination' | 'connection';

/** What stays of a deleted source, destination or connection: the answer it had when it was deleted. */
export interface Tombstone {
  kind: TombstoneKind;
  id: string;
  organizationId: string;
  workspaceId: string;
  /** Epoch ms, when the resource was created: tombstones take their place in lists by it. */
  createdAt: number;
  /** As the API answered it (secrets masked). */
  answer: object;
}

/** One entry of a page listing live rows and tombstones together. */
interface ListedId {
  id: string;
  deleted: boolean;
}

const LIVE_TABLES: Record<TombstoneKind, string> = { source: 'cloud_sources', destination: 'cloud_destinations', connection: 'cloud_connections' };

/**
 * The tombstones of deleted sources, destinations and connections (`includeDeleted`). Apart from the
 * live tables, so nothing that reads those (lookups, the scheduler, the sync engine) can see a deleted
 * one; each answer is sealed as configurations are.
 */
export class TombstoneTable {
  constructor(
    private readonly driver: SqlDriver,
    private readonly vault: ConfigurationVault,
  ) {}

  /**
   * Records them in `tx`, the transaction that deletes them, so a resource is never both gone and
   * without its tombstone. One buried already (two deletes racing) keeps its first tombstone.
   */
  async bury(tx: SqlDriver, tombstones: readonly Tombstone[], deletedAt: number): Promise<void> {
    for (const tombstone of tombstones) {
      const sealed = this.vault.seal(tombstone.answer as Record<string, unknown>);
      await tx.run(
        `INSERT INTO cloud_tombstones (id, kind, organization_id, workspace_id, created_at, deleted_at, key_id, ciphertext)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [tombstone.id, tombstone.kind, tombstone.organizationId, tombstone.workspaceId, tombstone.createdAt, deletedAt, sealed.key_id, sealed.ciphertext],
      );
    }
  }

  /** The answer a deleted resource had; undefined when there is no tombstone of that kind and id. */
  async answer<T>(kind: TombstoneKind, id: string): Promise<T | undefined> {
    const row = await this.driver.get<{ key_id: string; ciphertext: string }>('SELECT key_id, ciphertext FROM cloud_tombstones WHERE id = ? AND kind = ?', [
      id,
      kind,
    ]);
    return row && (this.vault.open(row) as T);
  }

  /**
   * A page of the organization's answers of `kind`, live ones and tombstones together in the order of
   * creation. `live` answers a live row: undefined when it was deleted since it was listed (its
   * tombstone answers then; a row gone with its workspace is left out).
   */
  async answers<T>(kind: TombstoneKind, organizationId: string, filter: ResourceFilter, live: (id: string) => Promise<T | undefined>): Promise<PublicPage<T>> {
    const listed = await this.page(kind, organizationId, filter);
    const items = await Promise.all(
      listed.slice(0, filter.limit).map(async ({ id, deleted }) => (deleted ? undefined : await live(id)) ?? (await this.answer<T>(kind, id))),
    );
    return { items: items.filter((item): item is Awaited<T> => item !== undefined), more: listed.length > filter.limit };
  }

  /** The ids of such a page, one more than the page when one follows. */
  private async page(kind: TombstoneKind, organizationId: string, filter: ResourceFilter): Promise<ListedId[]> {
    const where = resourceWhere(organizationId, filter);
    const rows = await this.driver.all<{ id: string; deleted: number | string }>(
      `SELECT id, created_at, 0 AS deleted FROM ${LIVE_TABLES[kind]} WHERE ${where.sql}
       UNION ALL
       SELECT id, created_at, 1 AS deleted FROM cloud_tombstones WHERE kind = ? AND ${where.sql}
       ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [...where.params, kind, ...where.params, filter.limit + 1, filter.offset],
    );
    return rows.map((row) => ({ id: row.id, deleted: Number(row.deleted) === 1 }));
  }
}
