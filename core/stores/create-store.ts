import { PostgresDriver } from './postgres-driver.ts';
import { checkPostgresConnection, postgresPrivilegeProblem } from './postgres-problems.ts';
import { SqliteDriver } from './sqlite-driver.ts';
import { SqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

export interface StoreOptions {
  /** PostgreSQL when set. */
  databaseUrl?: string;
  /** PostgreSQL schema (search_path); tests give each run its own. */
  schema?: string;
  /** SQLite's directory when no database URL is given. Default `./data`. */
  dataDir?: string;
}

/**
 * Opens the configured store and brings its schema up to date. A database it cannot use (unreachable,
 * refusing the role, missing, or not letting the role migrate) or a data directory it cannot use is a
 * ConfigurationError.
 */
export async function createStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) await checkPostgresConnection(options.databaseUrl);
  const driver = options.databaseUrl ? PostgresDriver.connect(options.databaseUrl, options.schema) : new SqliteDriver(options.dataDir ?? './data');
  const store = new SqlStore(driver);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw postgresPrivilegeProblem(error) ?? error;
  }
  return store;
}
