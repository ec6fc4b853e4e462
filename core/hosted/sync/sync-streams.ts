import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { SyncStreamSettings } from '../../sdk/index.ts';
import type { ColumnSpec } from './destinations/destination.ts';
import { manifestSyncStreams } from './manifest-sync-streams.ts';
import { columnsOf } from './stream-columns.ts';
import type { SelectedStream } from './sync-target.ts';

/** One stream a connection can sync: an entity's `list`, with what the sync engine needs to read and write it. */
export interface SyncStreamSpec {
  name: string;
  supportedSyncModes: SelectedStream['syncMode'][];
  primaryKey: string[];
  /** The cursor-based incremental's field (absent for full refresh only, and for change feeds). */
  cursorField?: string;
  /** The table's columns: the record schema's fields, then those copied from the parent. */
  columns: ColumnSpec[];
  settings: SyncStreamSettings;
  /** How its state is kept: Plugboard's cursors or change-feed token, or an Airbyte manifest stream's `stream_state`. */
  stateFormat: 'plugboard' | 'airbyte';
}

const FULL_REFRESH: SelectedStream['syncMode'][] = ['full_refresh_overwrite'];
const INCREMENTAL: SelectedStream['syncMode'][] = ['full_refresh_overwrite', 'incremental_append', 'incremental_deduped_history'];
/** A change feed has no whole to read again: only what changed since its token. */
const FEED: SelectedStream['syncMode'][] = ['incremental_append', 'incremental_deduped_history'];

const specs = new WeakMap<CompiledConnector, SyncStreamSpec[]>();

/**
 * The connector's sync streams: every entity it declares in `syncStreams`, and every other entity
 * whose `list` needs no params; an Airbyte manifest's, its streams. Computed once per loaded connector.
 */
export function syncStreamsOf(connector: CompiledConnector): SyncStreamSpec[] {
  let found = specs.get(connector);
  if (!found) {
    found = connector.manifest
      ? manifestSyncStreams(connector, connector.manifest)
      : connector.entities().flatMap((entity) => streamOf(connector, entity) ?? []);
    specs.set(connector, found);
  }
  return found;
}

export function findSyncStream(connector: CompiledConnector, name: string): SyncStreamSpec | undefined {
  return syncStreamsOf(connector).find((stream) => stream.name === name);
}

function streamOf(connector: CompiledConnector, entity: string): SyncStreamSpec | undefined {
  if (!connector.actionsOf(entity).includes('list')) return undefined;
  const list = connector.resolve(entity, 'list');
  const declared = connector.definition.syncStreams?.[entity];
  const required = (list.definition.params.required as string[] | undefined) ?? [];
  if (!declared && required.length > 0) return undefined;
  const settings = declared ?? {};
  const primaryKey = settings.primaryKey ?? connector.searchCatalogs().get(entity)?.idFields ?? ['id'];
  const incremental = settings.incremental;
  const columns = columnsOf(list.definition.record);
  for (const field of Object.keys(settings.parent?.fields ?? {})) {
    if (!columns.some((column) => column.name === field)) columns.push({ name: field, type: 'string' });
  }
  return {
    name: entity,
    supportedSyncModes: !incremental ? FULL_REFRESH : 'cursorField' in incremental ? INCREMENTAL : FEED,
    primaryKey,
    ...(incremental && 'cursorField' in incremental ? { cursorField: incremental.cursorField } : {}),
    columns,
    settings,
    stateFormat: 'plugboard',
  };
}
