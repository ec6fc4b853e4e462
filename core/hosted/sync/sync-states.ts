import type { StreamState as ManifestStreamState } from '../../manifests/read/index.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { StreamState } from './read-stream.ts';

/** A stream's saved state: a Plugboard connector's cursors or token, or an Airbyte manifest stream's `stream_state` as its read gave it. */
export type SavedState = StreamState | ManifestStreamState;

/** Each connection's per-stream state: where its next incremental read starts. */
export class SyncStates {
  constructor(private readonly db: SqlDriver) {}

  async get(connectionId: string, stream: string): Promise<SavedState | undefined> {
    const row = await this.db.get<{ state: string }>('SELECT state FROM sync_state WHERE connection_id = ? AND stream = ?', [connectionId, stream]);
    return row ? (JSON.parse(row.state) as SavedState) : undefined;
  }

  async all(connectionId: string): Promise<Record<string, SavedState>> {
    const rows = await this.db.all<{ stream: string; state: string }>('SELECT stream, state FROM sync_state WHERE connection_id = ? ORDER BY stream', [
      connectionId,
    ]);
    return Object.fromEntries(rows.map((row) => [row.stream, JSON.parse(row.state) as SavedState]));
  }

  async save(connectionId: string, stream: string, state: SavedState): Promise<void> {
    await this.db.run(
      `INSERT INTO sync_state (connection_id, stream, state, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (connection_id, stream) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [connectionId, stream, JSON.stringify(state), new Date().toISOString()],
    );
  }

  /** Forgets the streams' state (`streams` omitted: every stream's): the next sync reads them whole. */
  async clear(connectionId: string, streams?: string[]): Promise<void> {
    if (!streams) {
      await this.db.run('DELETE FROM sync_state WHERE connection_id = ?', [connectionId]);
      return;
    }
    for (const stream of streams) await this.db.run('DELETE FROM sync_state WHERE connection_id = ? AND stream = ?', [connectionId, stream]);
  }

  /** Replaces the connection's whole state with these streams' (none: forgets it), in one transaction. */
  async replace(connectionId: string, states: Record<string, SavedState>): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM sync_state WHERE connection_id = ?', [connectionId]);
      for (const [stream, state] of Object.entries(states)) {
        await tx.run('INSERT INTO sync_state (connection_id, stream, state, updated_at) VALUES (?, ?, ?, ?)', [
          connectionId,
          stream,
          JSON.stringify(state),
          now,
        ]);
      }
    });
  }
}
