import type { SqlValue } from './row-encoding.ts';
import type { SqlColumn, SqlDialect } from './table-columns.ts';

/** One database connection as the shared table code (table-load.ts) drives it; connected on first use. */
export interface SqlSession {
  readonly dialect: SqlDialect;
  /** PostgreSQL's `drop_cascade`: dropping a table drops the views built on it too. */
  readonly dropCascade: boolean;
  /** The table's name quoted for SQL, with the session's schema where it has one. */
  qualified(table: string): string;
  /** The table's column names, or null when there is no such table. */
  columnsOf(table: string): Promise<string[] | null>;
  /** Runs the statements in one transaction. */
  transaction(statements: string[]): Promise<void>;
  /** Replaces `table` with the staging table in one transaction, names and all as if it had been created as `table`. */
  swap(staging: string, table: string): Promise<void>;
  /**
   * Inserts the rows (values in `columns` order) in one transaction; `conflict` ends each insert
   * statement. Into a `staging` table, which nothing reads before its swap, a session may commit
   * the rows later, together with the next batches' (all of them before any other operation).
   */
  insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string, staging?: boolean): Promise<void>;
  close(): Promise<void>;
}
