import type { Kysely, SelectQueryBuilder } from 'kysely';
import { CloudError, InputError } from '../errors.ts';
import { type AnyDatabase, type Backend, selectTable } from './backend.ts';
import { DestinationConfigError } from '../../hosted/sync/destinations/config-fields.ts';
import type { Configuration } from './config.ts';
import { openDuckDbBackend } from './duckdb-backend.ts';
import { openPostgresBackend } from './postgres-backend.ts';
import { openSqliteBackend } from './sqlite-backend.ts';
import { columnKinds, rowConverter, type SqlColumnType } from './values.ts';

export { columnTypesFromJsonSchema, type SqlColumnType } from './values.ts';

/**
 * Reading back what Plugboard's syncs wrote into a SQL destination (SQLite, PostgreSQL, DuckDB): a
 * Kysely engine on the destination's database, and each stream's table `<prefix><stream>` as a
 * dataset of typed records, read in batches.
 */

export type SqlDestinationType = 'sqlite' | 'postgres' | 'duckdb';

export const SQL_DESTINATION_TYPES: readonly SqlDestinationType[] = ['sqlite', 'postgres', 'duckdb'];

export interface SqlDestinationOptions {
  /** Where a file destination's `/local/...` path lives on this machine (the server's workspace data directory, or a mount of it). */
  localRoot?: string;
  /** Secrets the API masks as '**********' (the postgres password), by configuration field name. */
  secrets?: Record<string, string>;
  /**
   * Each table's column types from its stream's record schema (see columnTypesFromJsonSchema), by
   * table name. SQLite stores booleans as 0/1 and JSON as text, so only these tell a dataset to
   * answer them as booleans and parsed JSON there; PostgreSQL and DuckDB declare both types.
   */
  columnTypes?: Record<string, Record<string, SqlColumnType>>;
  /** Rows a dataset reads at a time (default 1,000). */
  batchSize?: number;
}

export interface DatasetOptions {
  /** The table's column types from its record schema, instead of options.columnTypes[tableName]. */
  columnTypes?: Record<string, SqlColumnType>;
}

export interface Dataset<T> extends AsyncIterable<T> {
  /** Every row at once (the whole table in memory: iterate instead for a large one). */
  toArray(): Promise<T[]>;
}

export interface SqlCache {
  engine: Kysely<AnyDatabase>;
  databaseName: string;
  schemaName: string;
  tableName(stream: string): string;
  dataset<T>(stream: string): Dataset<T>;
  /** Closes the destination the cache reads through (its engine included). */
  close(): Promise<void>;
}

export interface SqlDestination {
  readonly destinationType: SqlDestinationType;
  readonly engine: Kysely<AnyDatabase>;
  databaseName(): string;
  schemaName(): string;
  tableName(stream: string, prefix?: string): string;
  /** engine.selectFrom(tableName) qualified with the schema (`"<schema>"."<table>" AS "<table>"`); rows as the driver answers them, untyped. */
  // biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a select with nothing selected yet.
  table(tableName: string): SelectQueryBuilder<AnyDatabase, AnyDatabase, {}>;
  /** The table's rows as typed records (`_airbyte_*` columns included), read in batches on each iteration. */
  dataset<T = Record<string, unknown>>(tableName: string, options?: DatasetOptions): Dataset<T>;
  cache(prefix?: string): SqlCache;
  close(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 1000;

/** Throws InputError for a destination type it cannot read, a masked secret not supplied, or a file path escaping localRoot. */
export function openSqlDestination(destinationType: string, configuration: Record<string, unknown>, options: SqlDestinationOptions = {}): SqlDestination {
  if (!SQL_DESTINATION_TYPES.includes(destinationType as SqlDestinationType)) {
    throw new InputError(
      `reading a destination of type ${JSON.stringify(destinationType)} is not supported: only ${SQL_DESTINATION_TYPES.join(', ')}`,
      'destinationType',
    );
  }
  const type = destinationType as SqlDestinationType;
  if (!configuration || typeof configuration !== 'object') throw new InputError(`${type} destination: the configuration must be an object`, 'configuration');
  const declared = configuration.destinationType;
  if (declared !== undefined && declared !== type) {
    throw new InputError(`a ${type} destination cannot read a configuration of destinationType ${JSON.stringify(declared)}`, 'destinationType');
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new InputError('batchSize must be a positive integer', 'batchSize');
  return new ReadableSqlDestination(type, openBackendOrRefuse(type, configuration, options), options.columnTypes ?? {}, batchSize);
}

/** The backend, or an InputError naming the configuration field it cannot work with. */
function openBackendOrRefuse(type: SqlDestinationType, configuration: Configuration, options: SqlDestinationOptions): Backend {
  try {
    return openBackend(type, configuration, options);
  } catch (error) {
    if (error instanceof DestinationConfigError) throw new InputError(error.message, error.field);
    throw error;
  }
}

function openBackend(type: SqlDestinationType, configuration: Configuration, options: SqlDestinationOptions): Backend {
  switch (type) {
    case 'sqlite':
      return openSqliteBackend(configuration, options.localRoot);
    case 'postgres':
      return openPostgresBackend(configuration, options.secrets);
    case 'duckdb':
      return openDuckDbBackend(configuration, options.localRoot);
  }
}

class ReadableSqlDestination implements SqlDestination {
  readonly engine: Kysely<AnyDatabase>;
  private closing: Promise<void> | undefined;

  constructor(
    readonly destinationType: SqlDestinationType,
    private readonly backend: Backend,
    private readonly columnTypes: Record<string, Record<string, SqlColumnType>>,
    private readonly batchSize: number,
  ) {
    this.engine = backend.engine;
  }

  databaseName(): string {
    return this.backend.databaseName;
  }

  schemaName(): string {
    return this.backend.schemaName;
  }

  tableName(stream: string, prefix = ''): string {
    return `${prefix}${stream}`;
  }

  // biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a select with nothing selected yet.
  table(tableName: string): SelectQueryBuilder<AnyDatabase, AnyDatabase, {}> {
    return selectTable(this.engine, this.backend.schemaName, tableName);
  }

  dataset<T = Record<string, unknown>>(tableName: string, options: DatasetOptions = {}): Dataset<T> {
    const hints = options.columnTypes ?? (Object.hasOwn(this.columnTypes, tableName) ? this.columnTypes[tableName] : undefined);
    const jsonAsText = this.destinationType !== 'postgres';
    const batches = () => {
      if (this.closing) throw new CloudError('the SQL destination is closed');
      return this.backend.read(tableName, this.batchSize, (columns) => rowConverter(columnKinds(columns, hints), jsonAsText));
    };
    async function* rows(): AsyncGenerator<T> {
      for await (const batch of batches()) yield* batch as T[];
    }
    return {
      [Symbol.asyncIterator]: () => rows(),
      toArray: async () => {
        const all: T[] = [];
        for await (const batch of batches()) for (const row of batch) all.push(row as T);
        return all;
      },
    };
  }

  cache(prefix = ''): SqlCache {
    return {
      engine: this.engine,
      databaseName: this.databaseName(),
      schemaName: this.schemaName(),
      tableName: (stream) => this.tableName(stream, prefix),
      dataset: <T>(stream: string) => this.dataset<T>(this.tableName(stream, prefix)),
      close: () => this.close(),
    };
  }

  close(): Promise<void> {
    this.closing ??= this.backend.close();
    return this.closing;
  }
}
