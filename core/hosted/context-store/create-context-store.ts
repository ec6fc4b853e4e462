import { resolve } from 'node:path';
import { PostgresDriver } from '../../stores/postgres-driver.ts';
import { migrate } from '../../stores/migrate.ts';
import { SqliteDriver } from '../../stores/sqlite-driver.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { PostgresSearchReader } from './postgres-search-reader.ts';
import { SqlContextStore } from './sql-context-store.ts';
import { SqliteReadPool } from './sqlite-read-pool.ts';
import { SqliteWriteThread } from './sqlite-write-thread.ts';

export interface ContextStoreOptions {
  /** PostgreSQL when set (the hosted server's DATABASE_URL). */
  databaseUrl?: string;
  /** PostgreSQL schema (search_path); tests give each run its own. */
  schema?: string;
  /** SQLite: the data directory, and the database file (relative to it; default: the hosted store's plugboard.db). */
  dataDir?: string;
  file?: string;
  /** How long one search may take, in milliseconds (default DEFAULT_SEARCH_BUDGET_MS); past it, a 422 query_too_expensive. */
  searchBudgetMs?: number;
  /** SQLite: how many reader threads run searches (default DEFAULT_READER_THREADS). */
  readerThreads?: number;
}

/** Opens the context store's database and brings its tables up to date (its own migrations, per dialect). */
export async function createContextStore(options: ContextStoreOptions): Promise<SqlContextStore> {
  const driver: SqlDriver = options.databaseUrl
    ? PostgresDriver.connect(options.databaseUrl, options.schema)
    : // Replicated records can always be read again from the upstream: tuned for bulk writes.
      new SqliteDriver(options.dataDir ?? './data', options.file === undefined ? undefined : resolve(options.dataDir ?? './data', options.file), {
        bulk: true,
      });
  try {
    // Records and text indexes differ per database; replication's bookkeeping tables do not.
    await migrate(driver, { dir: new URL(`./migrations/${driver.dialect}/`, import.meta.url), table: 'context_store_migrations', lock: 7_263_105 });
    await migrate(driver, { dir: new URL('./migrations/common/', import.meta.url), table: 'context_store_common_migrations', lock: 7_263_105 });
  } catch (error) {
    await driver.close();
    throw error;
  }
  const { searchBudgetMs } = options;
  return driver instanceof SqliteDriver
    ? new SqlContextStore(driver, {
        writeThread: new SqliteWriteThread(driver.file),
        reader: new SqliteReadPool(driver.file, options.readerThreads),
        searchBudgetMs,
      })
    : new SqlContextStore(driver, { reader: new PostgresSearchReader(driver), searchBudgetMs });
}
