import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { JsonSchema, SyncStreamSettings } from '../../sdk/index.ts';
import type { ColumnSpec, ColumnType } from './destinations/destination.ts';
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
}

const FULL_REFRESH: SelectedStream['syncMode'][] = ['full_refresh_overwrite'];
const INCREMENTAL: SelectedStream['syncMode'][] = ['full_refresh_overwrite', 'incremental_append', 'incremental_deduped_history'];
/** A change feed has no whole to read again: only what changed since its token. */
const FEED: SelectedStream['syncMode'][] = ['incremental_append', 'incremental_deduped_history'];

const specs = new WeakMap<CompiledConnector, SyncStreamSpec[]>();

/**
 * The connector's sync streams: every entity it declares in `syncStreams`, and every other entity
 * whose `list` needs no params. Computed once per loaded connector.
 */
export function syncStreamsOf(connector: CompiledConnector): SyncStreamSpec[] {
  let found = specs.get(connector);
  if (!found) {
    found = connector.entities().flatMap((entity) => streamOf(connector, entity) ?? []);
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
  };
}

/** A column per property of the record schema: scalars typed, everything else (objects, arrays, several types) JSON. */
export function columnsOf(record: JsonSchema): ColumnSpec[] {
  const properties = (record.properties as Record<string, JsonSchema> | undefined) ?? {};
  return Object.entries(properties).map(([name, schema]) => ({ name, type: columnType(schema) }));
}

const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

function columnType(schema: JsonSchema | null): ColumnType {
  // A property that is not a schema object (null, true) holds anything: JSON.
  const given = schema && typeof schema === 'object' ? schema.type : undefined;
  const types = (Array.isArray(given) ? given : given === undefined ? [] : [given]).filter((type) => type !== 'null') as string[];
  return types.length === 1 && SCALARS.has(types[0]!) ? (types[0] as ColumnType) : 'json';
}
