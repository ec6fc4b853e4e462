/**
 * Where a sync writes: one interface, a backend per database (SQLite, PostgreSQL, DuckDB). A stream
 * lands in a typed table `<prefix><stream>`: a column per record field (scalars typed, objects and
 * arrays as JSON), the stream's primary key, and the three columns Airbyte destinations add
 * (`_airbyte_raw_id`, `_airbyte_extracted_at`, `_airbyte_meta`).
 */

/** A record field's column type, from its JSON Schema type. */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'json';

export interface ColumnSpec {
  /** The record field's name, as is (quoted as an identifier by the backend). */
  name: string;
  type: ColumnType;
}

export interface TableSpec {
  /** `<prefix><stream>`. */
  name: string;
  /** The record's fields, in schema order; the `_airbyte_*` columns are the backend's to add. */
  columns: ColumnSpec[];
  /** Columns of the primary key (non-empty for `append_dedup`). */
  primaryKey: string[];
}

/**
 * - `overwrite` (full refresh): rows go to a staging table; `commit()` swaps it in atomically, so
 *   readers see the old table or the new one, never half of one. Without commit the old table stays.
 * - `append_dedup` (incremental): each batch is upserted into the table by primary key, committed
 *   when `write` resolves; a batch written again (a resumed attempt) adds no duplicate.
 */
export type WriteMode = 'overwrite' | 'append_dedup';

/** What every row of one stream's write carries besides its data. */
export interface WriteContext {
  /** The sync job's id, in `_airbyte_meta.sync_id`. */
  syncId: number;
}

export interface StreamWriter {
  /**
   * Writes a batch in one transaction, creating the table (or adding missing columns) first when
   * needed. Resolves once the rows are durable; answers the records' bytes as the sync counts them,
   * alike on every backend (each record's JSON in UTF-8: record-bytes.ts). A write called before the
   * earlier ones resolved is queued behind them: batches are written in the order they were given.
   */
  write(records: Record<string, unknown>[]): Promise<number>;
  /** `overwrite`: swaps the staging table in. `append_dedup`: nothing left to do. */
  commit(): Promise<void>;
  /** Drops the staging table of an unfinished overwrite; the final table is untouched. */
  abort(): Promise<void>;
}

export interface Destination {
  readonly type: DestinationType;
  /** Connects and proves it can create, write and drop a table: throws a clear error when it cannot. */
  check(): Promise<void>;
  openStream(table: TableSpec, mode: WriteMode, context: WriteContext): Promise<StreamWriter>;
  /** Drops the tables (a reset job); missing ones are fine. */
  dropTables(names: string[]): Promise<void>;
  close(): Promise<void>;
}

export const DESTINATION_TYPES = ['sqlite', 'postgres', 'duckdb'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];
