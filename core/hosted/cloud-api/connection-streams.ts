import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { invalidField } from '../../errors.ts';
import { streamMapping } from '../sync/mappers/stream-mapping.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { PublicStreamConfiguration } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { defaultSyncMode } from './default-sync-mode.ts';
import { maskedMapper } from './mapper-secrets.ts';

type Available = Pick<SyncStreamSpec, 'name' | 'supportedSyncModes' | 'primaryKey' | 'cursorField' | 'columns'>;
type StoredMappers = NonNullable<SelectedStream['mappers']>;

/**
 * A stream as a connection keeps it: how it is synced, the top-level fields selected when only some
 * are, and its mappers (see docs/sync.md on what syncs make of them).
 */
export type ConnectionStream = SelectedStream;

/** The stream's mode when none is chosen (default-sync-mode.ts). */
export function defaultMode(stream: Available): SelectedStream['syncMode'] {
  return defaultSyncMode(stream.supportedSyncModes)!;
}

/** Whether the stream is read incrementally in some mode: its cursor (a field, or a change feed's token) is then the source's. */
export function sourceDefinedCursor(stream: Pick<SyncStreamSpec, 'supportedSyncModes'>): boolean {
  return stream.supportedSyncModes.some((mode) => mode !== 'full_refresh_overwrite');
}

/** A stream's cursor field and primary key as the public API gives them: paths (of one field each here). */
export function streamKeys(stream: Pick<SyncStreamSpec, 'cursorField' | 'primaryKey'>): { cursorField: string[]; primaryKey: string[][] } {
  return { cursorField: stream.cursorField === undefined ? [] : [stream.cursorField], primaryKey: stream.primaryKey.map((field) => [field]) };
}

/**
 * The streams a connection syncs, from its `configurations.streams`: each one of the source's
 * streams, once, in a mode it supports (its default when none is given); a cursor field or primary
 * key given must be the stream's own, since the connector fixes them; selected fields as Airbyte
 * takes them (see selectedFieldsOf); mappers each checked against the fields the selection and the
 * mappers before it leave (streamMapping), an id given to each that has none. None given: every stream.
 */
export function selectStreams(available: readonly Available[], given: readonly PublicStreamConfiguration[] | undefined, loc: Loc): ConnectionStream[] {
  if (!given || given.length === 0) return available.map((stream) => ({ name: stream.name, syncMode: defaultMode(stream) }));
  const names = available.map((stream) => stream.name).join(', ');
  const seen = new Set<string>();
  return given.map((entry, i) => {
    const at = [...loc, i];
    const stream = available.find((candidate) => candidate.name === entry.name);
    if (!stream) throw invalidField([...at, 'name'], `unknown stream "${entry.name}"; the source's streams: ${names}`, 'value_error.unknown_stream');
    if (seen.has(stream.name)) throw invalidField([...at, 'name'], `stream "${stream.name}" is listed twice`, 'value_error.duplicate_stream');
    seen.add(stream.name);
    const syncMode = (entry.syncMode ?? defaultMode(stream)) as SelectedStream['syncMode'];
    if (!stream.supportedSyncModes.includes(syncMode)) {
      throw invalidField(
        [...at, 'syncMode'],
        `stream "${stream.name}" does not support ${syncMode}; supported: ${stream.supportedSyncModes.join(', ')}`,
        'value_error.unsupported_sync_mode',
      );
    }
    const fixed = streamAnswer(stream, syncMode);
    if (entry.cursorField !== undefined && !isDeepStrictEqual(entry.cursorField, fixed.cursorField)) {
      throw invalidField([...at, 'cursorField'], `stream "${stream.name}"'s cursor field is ${JSON.stringify(fixed.cursorField)}`, 'value_error.cursor_field');
    }
    if (entry.primaryKey !== undefined && !isDeepStrictEqual(entry.primaryKey, fixed.primaryKey)) {
      throw invalidField([...at, 'primaryKey'], `stream "${stream.name}"'s primary key is ${JSON.stringify(fixed.primaryKey)}`, 'value_error.primary_key');
    }
    const selectedFields = entry.selectedFields === undefined ? undefined : selectedFieldsOf(stream, syncMode, entry.selectedFields, [...at, 'selectedFields']);
    const mappers: StoredMappers | undefined = entry.mappers?.length
      ? entry.mappers.map((mapper) => ({ ...mapper, id: mapper.id ?? randomUUID() }))
      : undefined;
    const chosen: ConnectionStream = { name: stream.name, syncMode, ...(selectedFields ? { selectedFields } : {}), ...(mappers ? { mappers } : {}) };
    streamMapping(stream, chosen, [...at, 'mappers']);
    return chosen;
  });
}

/**
 * A stream's selected fields, by Airbyte's rules (its public API's validateFieldSelection): at least
 * one, each a top-level field of the stream, once; the primary key among them in a deduplicated
 * mode, the cursor field in an incremental one.
 */
function selectedFieldsOf(
  stream: Available,
  syncMode: SelectedStream['syncMode'],
  given: NonNullable<PublicStreamConfiguration['selectedFields']>,
  loc: Loc,
): string[] {
  const fields = stream.columns.map((column) => column.name);
  if (given.length === 0)
    throw invalidField(loc, `select at least one field of stream "${stream.name}"; its fields: ${fields.join(', ')}`, 'value_error.no_field_selected');
  const names = given.map((field, i) => {
    const path = field.fieldPath ?? [];
    if (path.length !== 1)
      throw invalidField([...loc, i, 'fieldPath'], 'a path of one field: nested field selection is not supported', 'value_error.nested_field');
    if (!fields.includes(path[0]!))
      throw invalidField(
        [...loc, i, 'fieldPath'],
        `no field "${path[0]}" in stream "${stream.name}"; its fields: ${fields.join(', ')}`,
        'value_error.unknown_field',
      );
    if (given.findIndex((other) => other.fieldPath?.[0] === path[0]) !== i)
      throw invalidField([...loc, i, 'fieldPath'], `field "${path[0]}" is selected twice`, 'value_error.duplicate_field');
    return path[0]!;
  });
  const required = [
    ...(syncMode === 'incremental_deduped_history' ? stream.primaryKey : []),
    ...(syncMode !== 'full_refresh_overwrite' && stream.cursorField ? [stream.cursorField] : []),
  ];
  const left = required.filter((field) => !names.includes(field));
  if (left.length > 0) {
    throw invalidField(
      loc,
      `stream "${stream.name}" in ${syncMode} needs its primary key and cursor fields selected: ${left.join(', ')}`,
      'value_error.key_field_not_selected',
    );
  }
  return names;
}

/**
 * The selected streams as answers give them: with their cursor field, primary key, selected fields
 * and mappers, an AES key masked (a stream no longer offered: its name and mode).
 */
export function streamsAnswer(available: readonly Available[], selected: readonly ConnectionStream[]): PublicStreamConfiguration[] {
  return selected.map((chosen) => {
    const stream = available.find((candidate) => candidate.name === chosen.name);
    const answer: PublicStreamConfiguration = stream ? streamAnswer(stream, chosen.syncMode) : { name: chosen.name, syncMode: chosen.syncMode };
    if (chosen.selectedFields) answer.selectedFields = chosen.selectedFields.map((field) => ({ fieldPath: [field] }));
    if (chosen.mappers) answer.mappers = chosen.mappers.map(maskedMapper);
    return answer;
  });
}

function streamAnswer(stream: Available, syncMode: SelectedStream['syncMode']): PublicStreamConfiguration & ReturnType<typeof streamKeys> {
  return { name: stream.name, syncMode, ...streamKeys(stream) };
}
