import { ValidationError } from '../../../errors.ts';
import type { PublicStreamMapper } from '../../types.generated.ts';
import type { ColumnSpec } from '../destinations/destination.ts';
import type { SyncStreamSpec } from '../sync-streams.ts';
import type { SelectedStream } from '../sync-target.ts';
import { type Loc, MappedFields } from './mapped-fields.ts';
import { planMapper } from './mapper-kinds.ts';
import { carryChanges } from './record-changes.ts';

type StreamFields = Pick<SyncStreamSpec, 'name' | 'columns' | 'primaryKey' | 'cursorField'>;

/** What a stream's selected fields and mappers make of its table and records. */
export interface StreamMapping {
  /** The table's columns and primary key (none when a mapper took a key field away in full refresh). */
  table: { columns: ColumnSpec[]; primaryKey: string[] };
  /**
   * The record as the destination gets it (a copy when anything changes it, carrying the values left
   * NULL under `_airbyte_meta`), or undefined when a row filter drops it.
   */
  map(record: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Values the mappers could not map and left NULL, counted by field. */
  readonly nulled: ReadonlyMap<string, number>;
}

/**
 * The selection, then each mapper in order, as Airbyte runs them: the selected top-level fields (the
 * primary key and cursor always kept), then each mapper checked against the fields the ones before
 * it left. An invalid mapper is a 400 at its place under `loc`.
 */
export function streamMapping(stream: StreamFields, selected: Pick<SelectedStream, 'syncMode' | 'selectedFields' | 'mappers'>, loc: Loc): StreamMapping {
  const kept = keptColumns(stream, selected.selectedFields);
  // Incremental modes upsert by the key: a mapper may not take it away there.
  const fields = new MappedFields(kept, stream.primaryKey, selected.syncMode !== 'full_refresh_overwrite');
  const steps = (selected.mappers ?? []).map((mapper, i) => planMapper(mapper, fields, [...loc, i]));
  const table = { columns: fields.columns, primaryKey: fields.keyLost === undefined ? fields.primaryKey : [] };
  const nulled = new Map<string, number>();
  if (kept.length === stream.columns.length && steps.length === 0) return { table, map: (record) => record, nulled };
  const names = kept.map((column) => column.name);
  // The fields nulled in the record being mapped, noted in its `_airbyte_meta` (record-changes.ts).
  const nulledHere: string[] = [];
  const noteNulled = (field: string) => {
    nulled.set(field, (nulled.get(field) ?? 0) + 1);
    nulledHere.push(field);
  };
  return {
    table,
    nulled,
    map(record) {
      const copy: Record<string, unknown> = {};
      nulledHere.length = 0;
      for (const name of names) if (Object.hasOwn(record, name)) copy[name] = record[name];
      for (const step of steps) if (!step(copy, noteNulled)) return undefined;
      if (nulledHere.length > 0) carryChanges(copy, nulledHere);
      return copy;
    },
  };
}

/** The stream's mapping for a sync: mappers that no longer fit the stream (its connector changed) fail the attempt rather than be skipped. */
export function syncStreamMapping(stream: StreamFields, selected: SelectedStream): StreamMapping {
  try {
    return streamMapping(stream, selected, ['mappers']);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ');
    throw new Error(`stream "${stream.name}": its mappers no longer fit the stream's fields (${problems})`);
  }
}

/** The selected columns, in the stream's order, with the primary key and cursor whatever the selection. */
function keptColumns(stream: StreamFields, selectedFields: readonly string[] | undefined): ColumnSpec[] {
  if (!selectedFields) return stream.columns;
  const wanted = new Set([...selectedFields, ...stream.primaryKey, ...(stream.cursorField ? [stream.cursorField] : [])]);
  return stream.columns.filter((column) => wanted.has(column.name));
}

export type { PublicStreamMapper as StreamMapper };
