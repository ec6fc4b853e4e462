import type { ManifestRunner } from '../../manifests/connector/manifest-runner.ts';
import type { ManifestStreamDescription } from '../../manifests/index.ts';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { ColumnSpec } from './destinations/destination.ts';
import { columnsOf } from './stream-columns.ts';
import type { SyncStreamSpec } from './sync-streams.ts';
import type { SelectedStream } from './sync-target.ts';

type Modes = SelectedStream['syncMode'][];

/**
 * An Airbyte manifest's streams as sync streams, named as the manifest names them: columns from the
 * record schema the stream's entity lists (Airbyte's annotations dropped), the primary key when
 * every part of it is a top-level field, incremental modes for a stream with a cursor (deduplicated
 * only with a key to deduplicate by). Their state is the interpreter's `stream_state`.
 */
export function manifestSyncStreams(connector: CompiledConnector, runner: ManifestRunner): SyncStreamSpec[] {
  const entityOf = new Map([...runner.entities].map(([entity, stream]) => [stream, entity]));
  return runner.spec.streams.map((stream): SyncStreamSpec => {
    const record = connector.resolve(entityOf.get(stream.name)!, 'list').definition.record;
    const primaryKey = topLevelKey(stream);
    const cursorField = stream.cursorField !== undefined && !stream.cursorField.includes('{{') ? stream.cursorField : undefined;
    return {
      name: stream.name,
      supportedSyncModes: modesOf(stream.incremental, primaryKey.length > 0),
      primaryKey,
      ...(cursorField === undefined ? {} : { cursorField }),
      columns: withKeyColumns(columnsOf(record), primaryKey),
      settings: {},
      stateFormat: 'airbyte',
    };
  });
}

function modesOf(incremental: boolean, keyed: boolean): Modes {
  if (!incremental) return ['full_refresh_overwrite'];
  return keyed ? ['full_refresh_overwrite', 'incremental_append', 'incremental_deduped_history'] : ['full_refresh_overwrite', 'incremental_append'];
}

/** The primary key's fields when each is one top-level field; a nested key (`[[data, id]]`) has no column to be: none. */
function topLevelKey(stream: ManifestStreamDescription): string[] {
  const fields = stream.primaryKey.map((path) => (path.length === 1 ? path[0]! : undefined));
  return fields.every((field) => field !== undefined) ? (fields as string[]) : [];
}

/** A key field the schema leaves out still gets its column (as text): rows are upserted by it. */
function withKeyColumns(columns: ColumnSpec[], primaryKey: string[]): ColumnSpec[] {
  const missing = primaryKey.filter((field) => !columns.some((column) => column.name === field));
  return [...columns, ...missing.map((name) => ({ name, type: 'string' as const }))];
}
