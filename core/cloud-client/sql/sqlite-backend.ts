import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { CloudError } from '../errors.ts';
import { type AnyDatabase, type Backend, Lazy, missingTable, nextTick, quoteIdentifier } from './backend.ts';
import { type Configuration, fileDatabaseName, fileUnderLocalRoot, requiredString } from './config.ts';
import type { DeclaredColumn } from './values.ts';

const SCHEMA = 'main';

/**
 * An SQLite destination's file, opened read-only: the engine's connection, and one of each
 * dataset's own (better-sqlite3 is synchronous: a read in progress would hold the engine's).
 */
export function openSqliteBackend(config: Configuration, localRoot: string | undefined): Backend {
  const path = requiredString(config, 'sqlite', 'destination_path');
  const file = fileUnderLocalRoot(localRoot, path, 'sqlite');
  const open = (): Database.Database => {
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      // A sync writing the file (WAL) holds its lock only for moments.
      db.pragma('busy_timeout = 5000');
      return db;
    } catch (error) {
      throw new CloudError(`cannot open sqlite file ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  const engineDb = new Lazy(async () => open());
  const engine = new Kysely<AnyDatabase>({ dialect: new SqliteDialect({ database: engineDb.forEngine }) });
  return {
    engine,
    databaseName: fileDatabaseName(file),
    schemaName: SCHEMA,
    async *read(table, batchSize, convert) {
      const select = `SELECT * FROM ${quoteIdentifier(SCHEMA)}.${quoteIdentifier(table)}`;
      const db = open();
      try {
        // One read transaction: the columns and every batch from the same snapshot, a swap by a sync notwithstanding.
        db.exec('BEGIN');
        const columns = db.prepare('SELECT name, type FROM pragma_table_info(?, ?)').all(table, SCHEMA) as DeclaredColumn[];
        if (columns.length === 0) throw missingTable(table, SCHEMA);
        const toRecord = convert(columns);
        const rows = db.prepare(select).iterate() as IterableIterator<Record<string, unknown>>;
        try {
          for (;;) {
            const batch: Record<string, unknown>[] = [];
            let next = rows.next();
            while (!next.done) {
              batch.push(toRecord(next.value));
              if (batch.length >= batchSize) break;
              next = rows.next();
            }
            if (batch.length > 0) yield batch;
            if (next.done) break;
            await nextTick();
          }
        } finally {
          rows.return?.();
        }
      } finally {
        db.close();
      }
    },
    async close() {
      await engine.destroy();
      (await engineDb.leftToClose())?.close();
    },
  };
}
