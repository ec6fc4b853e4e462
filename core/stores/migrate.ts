import { readdir, readFile } from 'node:fs/promises';
import type { SqlDriver } from './sql-driver.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
/** Advisory-lock key serialising migrations across instances sharing a PostgreSQL database. */
const MIGRATION_LOCK = 7_263_104;

/**
 * Applies the versioned migrations (`NNN_name.sql`) not yet recorded in schema_migrations, in order,
 * in one transaction. Instances starting together wait for each other; the second finds nothing to do.
 */
export async function migrate(driver: SqlDriver): Promise<void> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  // Read before the transaction: no file I/O while the database's write lock is held.
  const files = await Promise.all(
    names.map(async (name) => ({ version: Number(name.split('_')[0]), sql: await readFile(new URL(name, MIGRATIONS_DIR), 'utf8') })),
  );
  await driver.transaction(async (tx) => {
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set((await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => Number(row.version)));
    for (const { version, sql } of files) {
      if (applied.has(version)) continue;
      await tx.exec(sql);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, new Date().toISOString()]);
    }
  }, MIGRATION_LOCK);
}
