import { type DestinationConfiguration, optionalString, requiredString } from './config-fields.ts';
import { fileUnderDataDir } from './data-dir-path.ts';
import type { Destination } from './destination.ts';
import { leaseDuckDbFile } from './duckdb-files.ts';
import { SessionDestination } from './session-destination.ts';
import type { SqlDialect } from './table-columns.ts';
import { TextListSession, type TextListRunner } from './text-list-session.ts';

const DUCKDB_DIALECT: SqlDialect = {
  types: {
    string: 'VARCHAR',
    integer: 'BIGINT',
    number: 'DOUBLE',
    boolean: 'BOOLEAN',
    json: 'JSON',
    rawId: 'VARCHAR',
    extractedAt: 'TIMESTAMP WITH TIME ZONE',
    meta: 'JSON',
  },
  maxIdentifierBytes: Number.POSITIVE_INFINITY,
  foldsIdentifierCase: true,
  booleans: 'boolean',
  textAllowsNul: true,
};

/** Airbyte's MotherDuck paths: a network service, which this server does not reach (nor the cloud client read). */
export const MOTHERDUCK_PATH = /^(md|motherduck):/i;

/** A DuckDB destination from its Airbyte-shaped configuration (schemas/server/destination-duckdb.json): a file under the data directory. */
export function createDuckDbDestination(config: DestinationConfiguration, dataDir: string): Destination {
  const path = requiredString(config, 'duckdb', 'destination_path');
  if (MOTHERDUCK_PATH.test(path)) {
    throw new Error(`duckdb destination: MotherDuck (destination_path ${JSON.stringify(path)}) is not supported; give a file path inside the data directory`);
  }
  const file = fileUnderDataDir(dataDir, path, 'duckdb');
  const session = new TextListSession({
    dialect: DUCKDB_DIALECT,
    schema: optionalString(config, 'duckdb', 'schema', 'main'),
    dropCascade: false,
    // One JSON text per column: binding a list value by value would cost the event loop far more.
    textListParam: (number) => `from_json($${number}, '["VARCHAR"]')`,
    connect: () => connectDuckDb(file, path),
  });
  return new SessionDestination('duckdb', session);
}

async function connectDuckDb(file: string, path: string): Promise<TextListRunner> {
  const { connection, release } = await leaseDuckDbFile(file).catch((error: unknown) => {
    throw new Error(`cannot open duckdb file ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    query: async (sql, params) => (await connection.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[],
    runWithTextLists: async (sql, lists) =>
      void (await connection.run(
        sql,
        lists.map((list) => JSON.stringify(list)),
      )),
    isBroken: () => false,
    close: async () => {
      connection.closeSync();
      release();
    },
  };
}
