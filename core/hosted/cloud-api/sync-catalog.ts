import { invalidField, ValidationError } from '../../errors.ts';
import type { JsonSchema } from '../../sdk/index.ts';
import type { ColumnType } from '../sync/destinations/destination.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { ConfigCatalogStream, ConfigSyncCatalog, PublicStreamConfiguration } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { defaultMode, selectStreams, sourceDefinedCursor, streamKeys } from './connection-streams.ts';

type ConfigModes = Pick<ConfigCatalogStream['config'], 'syncMode' | 'destinationSyncMode'>;

/** Each sync mode Plugboard runs (the public API's names), as the config API splits it: how it is read, how it is written. */
const CONFIG_MODES: Record<SelectedStream['syncMode'], ConfigModes> = {
  full_refresh_overwrite: { syncMode: 'full_refresh', destinationSyncMode: 'overwrite' },
  incremental_append: { syncMode: 'incremental', destinationSyncMode: 'append' },
  incremental_deduped_history: { syncMode: 'incremental', destinationSyncMode: 'append_dedup' },
};

/** What a table column holds, as a record schema's property says it (a JSON column: any value). */
const COLUMN_SCHEMAS: Record<ColumnType, JsonSchema> = {
  string: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  json: {},
};

/** Where selectStreams reports a problem; moved to the catalog entry it came from. */
const SELECTION_LOC: Loc = ['streams'];

/**
 * The config API's sync catalog of a connection: every sync stream of its source, what the connector
 * fixes about it (record schema, modes, cursor, primary key) and whether and how the connection syncs
 * it (`selected` false: in the mode it would get by default).
 */
export function catalogOf(available: readonly SyncStreamSpec[], selected: readonly PublicStreamConfiguration[]): ConfigSyncCatalog {
  return {
    streams: available.map((stream) => {
      const chosen = selected.find((candidate) => candidate.name === stream.name);
      // Stored modes are always ones Plugboard runs (selectStreams took them).
      const mode = (chosen?.syncMode as SelectedStream['syncMode'] | undefined) ?? defaultMode(stream);
      const { cursorField, primaryKey } = streamKeys(stream);
      return {
        stream: {
          name: stream.name,
          jsonSchema: { type: 'object', properties: Object.fromEntries(stream.columns.map((column) => [column.name, COLUMN_SCHEMAS[column.type]])) },
          supportedSyncModes: [...new Set(stream.supportedSyncModes.map((supported) => CONFIG_MODES[supported].syncMode))],
          sourceDefinedCursor: sourceDefinedCursor(stream),
          defaultCursorField: cursorField,
          sourceDefinedPrimaryKey: primaryKey,
        },
        config: { selected: chosen !== undefined, ...CONFIG_MODES[mode], cursorField, primaryKey },
      };
    }),
  };
}

/**
 * The streams a catalog selects (`selected` left out counts as selected), each in the mode its two
 * halves name, through the public API's rules (selectStreams): a 422 at the catalog entry at fault.
 * A cursor field counts only with incremental, a primary key only with append_dedup, as the config
 * API says; at least one stream must be selected.
 */
export function catalogSelection(available: readonly SyncStreamSpec[], catalog: ConfigSyncCatalog, loc: Loc): Array<Pick<SelectedStream, 'name' | 'syncMode'>> {
  const entries = [...catalog.streams.entries()].filter(([, entry]) => entry.config.selected !== false);
  if (entries.length === 0) throw invalidField(loc, 'select at least one stream', 'value_error.no_stream_selected');
  const given = entries.map(([j, { stream, config }]): PublicStreamConfiguration => {
    const mode = Object.entries(CONFIG_MODES).find(
      ([, modes]) => modes.syncMode === config.syncMode && modes.destinationSyncMode === config.destinationSyncMode,
    )?.[0] as SelectedStream['syncMode'] | undefined;
    if (!mode) {
      throw invalidField(
        [...loc, j, 'config', 'destinationSyncMode'],
        `${config.syncMode} with ${config.destinationSyncMode} is not supported: full_refresh with overwrite, incremental with append or append_dedup`,
        'value_error.unsupported_sync_mode',
      );
    }
    return {
      name: stream.name,
      syncMode: mode,
      ...(config.syncMode === 'incremental' && config.cursorField !== undefined ? { cursorField: config.cursorField } : {}),
      ...(config.destinationSyncMode === 'append_dedup' && config.primaryKey !== undefined ? { primaryKey: config.primaryKey } : {}),
    };
  });
  try {
    return selectStreams(available, given, SELECTION_LOC).map(({ name, syncMode }) => ({ name, syncMode }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(
      error.issues.map((issue) => {
        const [i, field] = issue.loc.slice(SELECTION_LOC.length) as [number, string];
        return { ...issue, loc: [...loc, entries[i]![0], ...(field === 'name' ? ['stream', 'name'] : ['config', field])] };
      }),
    );
  }
}
