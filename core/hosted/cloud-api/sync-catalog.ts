import { isDeepStrictEqual } from 'node:util';
import { invalidField, ValidationError } from '../../errors.ts';
import type { JsonSchema } from '../../sdk/index.ts';
import type { ColumnType } from '../sync/destinations/destination.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { ConfigCatalogStream, ConfigSyncCatalog, PublicStreamConfiguration } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { defaultMode, sourceDefinedCursor, streamKeys } from './connection-streams.ts';

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
        config: {
          selected: chosen !== undefined,
          ...CONFIG_MODES[mode],
          cursorField,
          primaryKey,
          fieldSelectionEnabled: chosen?.selectedFields !== undefined,
          ...(chosen?.selectedFields ? { selectedFields: chosen.selectedFields } : {}),
          mappers: chosen?.mappers ?? [],
        },
      };
    }),
  };
}

/** The streams a catalog selects, as PATCH /v1/connections takes them, and where its refusals point. */
export interface CatalogSelection {
  streams: PublicStreamConfiguration[];
  /** A refusal of `streams` (its issues under `given`, as PATCH /v1/connections reports them) moved to the catalog entries they came from. */
  atEntries(error: ValidationError, given: Loc): ValidationError;
}

/**
 * The streams a catalog selects (`selected` left out counts as selected), each in the mode its two
 * halves name, for PATCH /v1/connections, whose rules (selectStreams) check them. A cursor field counts
 * only with incremental, a primary key only with append_dedup, as the config API says; at least one
 * stream must be selected. Selected fields count when `fieldSelectionEnabled` is true (as Airbyte reads
 * them) and mappers when given; either left out keeps what the stream has (`current`, as answers give it).
 */
export function catalogSelection(catalog: ConfigSyncCatalog, current: readonly PublicStreamConfiguration[], loc: Loc): CatalogSelection {
  const entries = [...catalog.streams.entries()].filter(([, entry]) => entry.config.selected !== false);
  if (entries.length === 0) throw invalidField(loc, 'select at least one stream', 'value_error.no_stream_selected');
  const streams = entries.map(([j, { stream, config }]): PublicStreamConfiguration => {
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
    const kept = current.find((candidate) => candidate.name === stream.name);
    const selectedFields = config.fieldSelectionEnabled === undefined ? kept?.selectedFields : fieldSelection(config, [...loc, j, 'config']);
    const mappers = config.mappers ?? kept?.mappers;
    return {
      name: stream.name,
      syncMode: mode,
      ...(config.syncMode === 'incremental' && config.cursorField !== undefined ? { cursorField: config.cursorField } : {}),
      ...(config.destinationSyncMode === 'append_dedup' && config.primaryKey !== undefined ? { primaryKey: config.primaryKey } : {}),
      ...(selectedFields ? { selectedFields } : {}),
      ...(mappers ? { mappers } : {}),
    };
  });
  return {
    streams,
    atEntries: (error, given) =>
      new ValidationError(
        error.issues.map((issue) => {
          if (!isDeepStrictEqual(issue.loc.slice(0, given.length), given)) return issue;
          const [i, field, ...rest] = issue.loc.slice(given.length) as [number, string, ...Loc];
          return { ...issue, loc: [...loc, entries[i]![0], ...(field === 'name' ? ['stream', 'name'] : ['config', field, ...rest])] };
        }),
      ),
  };
}

/** The fields selected when field selection is enabled (required then, as Airbyte requires them); none (every field) when it is not. */
function fieldSelection(config: ConfigCatalogStream['config'], loc: Loc): PublicStreamConfiguration['selectedFields'] {
  if (!config.fieldSelectionEnabled) return undefined;
  if (config.selectedFields === undefined) {
    throw invalidField([...loc, 'selectedFields'], 'field required when fieldSelectionEnabled is true', 'value_error.missing');
  }
  return config.selectedFields;
}
