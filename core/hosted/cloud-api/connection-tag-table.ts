import type { SqlDriver } from '../../stores/sql-driver.ts';
import { placeholders } from './sql-columns.ts';
import type { TagRow } from './tag-table.ts';

/**
 * Which tags each connection carries (cloud_connection_tags). A deleted connection keeps its links:
 * its tombstone is listed with its tags, and found by them.
 */
export class ConnectionTagTable {
  constructor(private readonly driver: SqlDriver) {}

  /** The tags of each connection (by name), those that still exist. */
  async tagsOf(connectionIds: readonly string[]): Promise<Map<string, TagRow[]>> {
    const found = new Map<string, TagRow[]>(connectionIds.map((id) => [id, []]));
    if (connectionIds.length === 0) return found;
    const rows = await this.driver.all<TagRow & { connection_id: string }>(
      `SELECT t.*, l.connection_id FROM cloud_connection_tags l JOIN cloud_tags t ON t.id = l.tag_id
       WHERE l.connection_id IN (${placeholders(connectionIds)}) ORDER BY t.name, t.id`,
      [...connectionIds],
    );
    for (const { connection_id, ...tag } of rows) found.get(connection_id)?.push({ ...tag, created_at: Number(tag.created_at) });
    return found;
  }

  /** The connection's tags are these from now on. */
  replace(connectionId: string, tagIds: readonly string[]): Promise<void> {
    return this.driver.transaction(async (tx) => {
      await tx.run('DELETE FROM cloud_connection_tags WHERE connection_id = ?', [connectionId]);
      for (const tagId of new Set(tagIds)) await tx.run('INSERT INTO cloud_connection_tags (connection_id, tag_id) VALUES (?, ?)', [connectionId, tagId]);
    });
  }
}
