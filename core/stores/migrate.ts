import { readdir, readFile } from 'node:fs/promises';
import type { SqlDriver } from './sql-driver.ts';

/** A set of versioned migrations: the folder of its files and the table recording those applied. */
export interface MigrationSet {
  dir: URL;
  table: string;
  /** Advisory-lock key serialising these migrations across instances sharing a PostgreSQL database. */
  lock: number;
}

const STORE_MIGRATIONS: MigrationSet = { dir: new URL('./migrations/', import.meta.url), table: 'schema_migrations', lock: 7_263_104 };

/**
 * Applies the versioned migrations (`NNN_name.sql`) not yet recorded in schema_migrations, in order,
 * in one transaction. Instances starting together wait for each other; the second finds nothing to do.
 */
export async function migrate(driver: SqlDriver, set: MigrationSet = STORE_MIGRATIONS): Promise<void> {
  const { dir, table, lock } = set;
  const names = (await readdir(dir)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  // Read before the transaction: no file I/O while the database's write lock is held.
  const files = await Promise.all(names.map(async (name) => ({ version: Number(name.split('_')[0]), sql: await readFile(new URL(name, dir), 'utf8') })));
  await driver.transaction(async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    const applied = new Set((await tx.all<{ version: number }>(`SELECT version FROM ${table}`)).map((row) => Number(row.version)));
    for (const { version, sql } of files) {
      if (applied.has(version)) continue;
      await tx.exec(sql);
      await tx.run(`INSERT INTO ${table} (version, applied_at) VALUES (?, ?)`, [version, new Date().toISOString()]);
    }
  }, lock);
}
