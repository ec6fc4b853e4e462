import type { TableSpec, WriteContext } from './destination.ts';
import type { SqlColumn } from './table-columns.ts';

/** Where a batch goes: the table (or staging table) quoted for SQL, its columns in order, and the end of each insert statement (onConflictSql). */
export interface InsertTarget {
  qualified: string;
  columns: SqlColumn[];
  conflict: string;
}

/**
 * Encodes and inserts batches off the event loop, on a connection of its own (postgres-batch-loader.ts),
 * in the order they were given; the session keeps the table's definition and swap.
 */
export interface BatchLoader {
  /** Resolves once the rows are in; answers the records' bytes as the sync counts them (record-bytes.ts). */
  load(target: InsertTarget, table: TableSpec, context: WriteContext, records: Record<string, unknown>[]): Promise<number>;
  close(): Promise<void>;
}
