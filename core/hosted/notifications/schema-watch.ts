import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { ConnectionRecord } from '../cloud-api/connection-table.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { SchemaDiff, SchemaEvent } from './workspace-messages.ts';

/** What a connection is told about a stream: enough to tell a change that breaks its sync from one that does not. */
export interface StreamShape {
  name: string;
  primaryKey: string[];
  cursorField: string | null;
  modes: string[];
}

export interface SchemaChange {
  event: SchemaEvent;
  diff: SchemaDiff;
}

/** What a look found, and the write that keeps what it saw (in the expansion's transaction). */
export interface SchemaLook {
  change?: SchemaChange;
  keep(tx: SqlDriver): Promise<void>;
}

/**
 * Schema changes of a connection's source, as Airbyte tells them: looked for at the end of each job
 * (Airbyte discovers before each sync), against the streams seen the last time. A change that leaves
 * the connection's sync as it was is `connectionUpdate`; one that breaks it (a selected stream gone,
 * its mode no longer offered, its key or cursor moved) is `connectionUpdateActionRequired`.
 */
export class SchemaWatch {
  constructor(
    private readonly db: SqlDriver,
    /** The streams the connection's source offers now. */
    private readonly offered: (connection: ConnectionRecord) => Promise<SyncStreamSpec[]>,
    private readonly clock: () => number,
  ) {}

  async look(connection: ConnectionRecord): Promise<SchemaLook> {
    const streams = (await this.offered(connection)).map(shapeOf);
    // None offered is a connector not loaded on this server, not a source that lost every stream.
    if (streams.length === 0) return { keep: async () => undefined };
    const row = await this.db.get<{ streams: string }>('SELECT streams FROM notification_catalogs WHERE connection_id = ?', [connection.id]);
    const change = schemaChange(row ? (JSON.parse(row.streams) as StreamShape[]) : undefined, streams, connection.streams);
    const json = JSON.stringify(streams);
    const keep = async (tx: SqlDriver) => {
      if (row?.streams === json) return;
      await tx.run(
        `INSERT INTO notification_catalogs (connection_id, streams, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (connection_id) DO UPDATE SET streams = excluded.streams, updated_at = excluded.updated_at`,
        [connection.id, json, this.clock()],
      );
    };
    return { ...(change ? { change } : {}), keep };
  }
}

function shapeOf(stream: SyncStreamSpec): StreamShape {
  return { name: stream.name, primaryKey: stream.primaryKey, cursorField: stream.cursorField ?? null, modes: [...stream.supportedSyncModes] };
}

/**
 * The change from `before` to `now` for a connection syncing `selected`; none when nothing changed.
 * Never looked at before: only the selected streams are known to have been there (they were offered
 * when the connection was made), so only their loss is told.
 */
export function schemaChange(
  before: StreamShape[] | undefined,
  now: StreamShape[],
  selected: readonly { name: string; syncMode: string }[],
): SchemaChange | undefined {
  const offered = new Map(now.map((stream) => [stream.name, stream]));
  const known = before ?? selected.map((stream) => ({ name: stream.name, primaryKey: [], cursorField: null, modes: [] }));
  const diff: SchemaDiff = {
    added: before ? now.filter((stream) => !before.some((old) => old.name === stream.name)).map((stream) => stream.name) : [],
    removed: known.filter((stream) => !offered.has(stream.name)).map((stream) => stream.name),
    changed: before ? changedStreams(before, offered) : [],
  };
  if (diff.added.length + diff.removed.length + diff.changed.length === 0) return undefined;
  return { event: breaks(diff, now, selected) ? 'connectionUpdateActionRequired' : 'connectionUpdate', diff };
}

function changedStreams(before: StreamShape[], offered: Map<string, StreamShape>): SchemaDiff['changed'] {
  return before.flatMap((old) => {
    const stream = offered.get(old.name);
    if (!stream) return [];
    const what = [
      ...(same(old.primaryKey, stream.primaryKey) ? [] : ['primary key']),
      ...(old.cursorField === stream.cursorField ? [] : ['cursor']),
      ...(same(old.modes, stream.modes) ? [] : ['sync modes']),
    ];
    return what.length > 0 ? [{ name: old.name, what }] : [];
  });
}

/** Whether the connection can no longer sync as it was set up. */
function breaks(diff: SchemaDiff, now: StreamShape[], selected: readonly { name: string; syncMode: string }[]): boolean {
  return selected.some((chosen) => {
    const stream = now.find((candidate) => candidate.name === chosen.name);
    if (!stream?.modes.includes(chosen.syncMode)) return true;
    const what = diff.changed.find((changed) => changed.name === chosen.name)?.what ?? [];
    return (
      (what.includes('primary key') && chosen.syncMode === 'incremental_deduped_history') ||
      (what.includes('cursor') && chosen.syncMode.startsWith('incremental'))
    );
  });
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
