import type { SqlDriver } from '../../stores/sql-driver.ts';
import { placeholders, uniqueOr } from './sql-columns.ts';

/** A stored tag. `created_at` is epoch ms. */
export interface TagRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  color: string;
  created_at: number;
}

/** Another tag of the workspace has the name. */
export class TagNameTakenError extends Error {}
/** The workspace has as many tags as it may. */
export class TagLimitError extends Error {}

/** Serialises tag creations across processes (PostgreSQL advisory lock), so two cannot both pass the workspace's limit. */
const CREATE_LOCK = 7_263_126;

/** The rows of cloud_tags; a tag's links to connections (cloud_connection_tags) go with it. */
export class TagTable {
  constructor(private readonly driver: SqlDriver) {}

  /** Adds it unless its workspace has `limit` tags already (TagLimitError) or one of its name (TagNameTakenError). */
  insert(row: TagRow, limit: number): Promise<void> {
    return this.driver.transaction(async (tx) => {
      const count = await tx.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM cloud_tags WHERE workspace_id = ?', [row.workspace_id]);
      if (Number(count?.n ?? 0) >= limit) throw new TagLimitError();
      await uniqueName(
        tx.run('INSERT INTO cloud_tags (id, organization_id, workspace_id, name, color, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
          row.id,
          row.organization_id,
          row.workspace_id,
          row.name,
          row.color,
          row.created_at,
        ]),
      );
    }, CREATE_LOCK);
  }

  async get(id: string): Promise<TagRow | undefined> {
    const row = await this.driver.get<TagRow>('SELECT * FROM cloud_tags WHERE id = ?', [id]);
    return row && toTagRow(row);
  }

  /** The organization's tags (of those workspaces, when given), oldest first. */
  async list(organizationId: string, workspaceIds: readonly string[] = []): Promise<TagRow[]> {
    const rows = await this.driver.all<TagRow>(
      `SELECT * FROM cloud_tags WHERE organization_id = ?${workspaceIds.length > 0 ? ` AND workspace_id IN (${placeholders(workspaceIds)})` : ''}
       ORDER BY created_at, id`,
      [organizationId, ...workspaceIds],
    );
    return rows.map(toTagRow);
  }

  /** Those of the ids that are tags of the workspace. */
  async ofWorkspace(workspaceId: string, ids: readonly string[]): Promise<TagRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.driver.all<TagRow>(`SELECT * FROM cloud_tags WHERE workspace_id = ? AND id IN (${placeholders(ids)})`, [workspaceId, ...ids]);
    return rows.map(toTagRow);
  }

  /** False when the tag is gone; TagNameTakenError when another of its workspace has the name. */
  async update(id: string, changes: { name: string; color: string }): Promise<boolean> {
    const { changes: changed } = await uniqueName(this.driver.run('UPDATE cloud_tags SET name = ?, color = ? WHERE id = ?', [changes.name, changes.color, id]));
    return changed > 0;
  }

  /** Deletes the tag and takes it off every connection (deleted ones too), in one transaction. */
  delete(id: string): Promise<boolean> {
    return this.driver.transaction(async (tx) => {
      await tx.run('DELETE FROM cloud_connection_tags WHERE tag_id = ?', [id]);
      return (await tx.run('DELETE FROM cloud_tags WHERE id = ?', [id])).changes > 0;
    });
  }
}

function uniqueName<T>(statement: Promise<T>): Promise<T> {
  return uniqueOr(statement, () => new TagNameTakenError());
}

function toTagRow(row: TagRow): TagRow {
  return { ...row, created_at: Number(row.created_at) };
}
