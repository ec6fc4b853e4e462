import { isDeepStrictEqual } from 'node:util';
import { invalidField } from '../../errors.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { PublicStreamConfiguration } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';

type Available = Pick<SyncStreamSpec, 'name' | 'supportedSyncModes' | 'primaryKey' | 'cursorField'>;

/** Deduplicated by key where the stream can be, as Airbyte's default is for incremental streams. */
export function defaultMode(stream: Available): SelectedStream['syncMode'] {
  return stream.supportedSyncModes.includes('incremental_deduped_history') ? 'incremental_deduped_history' : stream.supportedSyncModes[0]!;
}

/**
 * The streams a connection syncs, from its `configurations.streams`: each one of the source's
 * streams, once, in a mode it supports (its default when none is given); a cursor field or primary
 * key given must be the stream's own, since the connector fixes them. None given: every stream.
 */
export function selectStreams(available: readonly Available[], given: readonly PublicStreamConfiguration[] | undefined, loc: Loc): SelectedStream[] {
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
    return { name: stream.name, syncMode };
  });
}

/** The selected streams as answers give them: with their cursor field and primary key (a stream no longer offered: its name and mode). */
export function streamsAnswer(available: readonly Available[], selected: readonly SelectedStream[]): PublicStreamConfiguration[] {
  return selected.map((chosen) => {
    const stream = available.find((candidate) => candidate.name === chosen.name);
    return stream ? streamAnswer(stream, chosen.syncMode) : { name: chosen.name, syncMode: chosen.syncMode };
  });
}

function streamAnswer(stream: Available, syncMode: SelectedStream['syncMode']): Required<PublicStreamConfiguration> {
  return {
    name: stream.name,
    syncMode,
    cursorField: stream.cursorField ? [stream.cursorField] : [],
    primaryKey: stream.primaryKey.map((field) => [field]),
  };
}
