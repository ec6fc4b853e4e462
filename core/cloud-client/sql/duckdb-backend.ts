import { DuckDBInstance } from '@duckdb/node-api';
import { type Dialect, Kysely, sql } from 'kysely';
import { DuckDbDialect } from 'kysely-duckdb';
import { MOTHERDUCK_PATH } from '../../hosted/sync/destinations/duckdb-destination.ts';
import { CloudError, InputError } from '../errors.ts';
import { type AnyDatabase, type Backend, Lazy, missingTable, selectTable } from './backend.ts';
import { type Configuration, fileDatabaseName, fileUnderLocalRoot, optionalString, requiredString } from './config.ts';
import type { DeclaredColumn } from './values.ts';

/**
 * A DuckDB destination's file, opened read-only in an instance of its own, through kysely-duckdb's
 * dialect (which opens a connection per query, so a dataset streaming holds no other query up).
 * DuckDB lets one process at a time hold a file for writing: while the server's sync writes it from
 * another process, the file cannot be opened here.
 */
export function openDuckDbBackend(config: Configuration, localRoot: string | undefined): Backend {
  const path = requiredString(config, 'duckdb', 'destination_path');
  if (MOTHERDUCK_PATH.test(path))
    throw new InputError(`duckdb destination: MotherDuck (destination_path ${JSON.stringify(path)}) is not supported`, 'destination_path');
  const file = fileUnderLocalRoot(localRoot, path, 'duckdb');
  const schema = optionalString(config, 'duckdb', 'schema', 'main');
  const instance = new Lazy(() =>
    DuckDBInstance.create(file, { access_mode: 'READ_ONLY' }).catch((error: unknown) => {
      throw new CloudError(`cannot open duckdb file ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }),
  );
  // kysely-duckdb's declarations name Kysely's CommonJS types, this module its ESM ones: the same classes at run time.
  const dialect = new DuckDbDialect({ database: instance.forEngine }) as unknown as Dialect;
  const engine = new Kysely<AnyDatabase>({ dialect });
  return {
    engine,
    databaseName: fileDatabaseName(file),
    schemaName: schema,
    async *read(table, batchSize, convert) {
      // DuckDB compares names without case, as the destination's tables were created.
      const columns = (
        await sql<DeclaredColumn>`SELECT column_name AS name, data_type AS type FROM information_schema.columns
          WHERE table_catalog = current_database() AND table_schema = ${schema} AND lower(table_name) = lower(${table}) ORDER BY ordinal_position`.execute(
          engine,
        )
      ).rows;
      if (columns.length === 0) throw missingTable(table, schema);
      const toRecord = convert(columns);
      // kysely-duckdb streams a query chunk by chunk (DuckDB's 2,048 rows) on a connection of the stream's own.
      let batch: Record<string, unknown>[] = [];
      for await (const row of selectTable(engine, schema, table).selectAll().stream(batchSize)) {
        batch.push(toRecord(row as Record<string, unknown>));
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    async close() {
      await engine.destroy();
      (await instance.leftToClose())?.closeSync();
    },
  };
}
