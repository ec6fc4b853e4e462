import { join } from 'node:path';
import { migrate } from '../../stores/migrate.ts';
import { DeclarativeTable } from './declarative-table.ts';
import { PostgresDriver } from '../../stores/postgres-driver.ts';
import { postgresPrivilegeProblem } from '../../stores/postgres-problems.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { SqliteDriver } from '../../stores/sqlite-driver.ts';

export interface CloudDatabaseOptions {
  /** PostgreSQL when set (the hosted server's DATABASE_URL; the store has checked it can connect). */
  databaseUrl?: string;
  /** PostgreSQL schema (search_path); tests give each run its own. */
  schema?: string;
  /** SQLite: the data directory, where `cloud-api.db` lives. */
  dataDir: string;
}

/** The cloud API's own database file under the data directory, apart from the store's. */
export const CLOUD_API_DB_FILE = 'cloud-api.db';

/**
 * Opens the public cloud API's database (its sources, destinations and connections; the sync engine
 * adds its own tables beside them) and brings its tables up to date.
 */
export async function openCloudDatabase(options: CloudDatabaseOptions): Promise<SqlDriver> {
  const driver: SqlDriver = options.databaseUrl
    ? PostgresDriver.connect(options.databaseUrl, options.schema)
    : new SqliteDriver(options.dataDir, join(options.dataDir, CLOUD_API_DB_FILE));
  try {
    await migrate(driver, { dir: new URL('./migrations/', import.meta.url), table: 'cloud_api_migrations', lock: 7_263_106 });
    // Sources from before secret endpoints were recorded: bound once, so "unrecorded" never has to mean "whatever it is now".
    await new DeclarativeTable(driver).bindUnboundSources();
  } catch (error) {
    await driver.close();
    throw postgresPrivilegeProblem(error) ?? error;
  }
  return driver;
}
