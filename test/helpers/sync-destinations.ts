import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import type { DestinationType } from '../../core/hosted/sync/destinations/destination.ts';
import { postgresConfigurationFromUrl } from '../../core/hosted/sync/destinations/postgres-connection.ts';

/** The PostgreSQL database tests write destinations into: never the one their servers store their own tables in. */
export function destinationDatabaseUrl(): string {
  return inject('destinationDatabaseUrl') ?? process.env.TEST_DATABASE_URL!;
}

/** Destination types under test: SQLite and DuckDB always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DESTINATION_TYPES: DestinationType[] = ['sqlite', 'duckdb', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/** A destination's configuration for a test, on its own file or PostgreSQL schema, and how to read back what a sync wrote. */
export interface TestDestination {
  configuration: Record<string, unknown>;
  /** Another schema of the same database, free for a connection's custom namespace, dropped with the destination (SQLite has none). */
  namespace: string;
  /** Every row of a table (of the configured schema, else of `schema`), columns as the database answers them. */
  rows(table: string, schema?: string): Promise<Record<string, unknown>[]>;
  /** Table names in the destination (its configured schema, else `schema`). */
  tables(schema?: string): Promise<string[]>;
  drop(): Promise<void>;
}

export async function testDestination(type: DestinationType, dataDir: string): Promise<TestDestination> {
  if (type === 'sqlite') {
    const path = `/local/sync-${randomBytes(4).toString('hex')}.sqlite`;
    const open = () => new Database(join(dataDir, path), { readonly: true });
    return {
      configuration: { destinationType: 'sqlite', destination_path: path },
      namespace: 'main',
      rows: async (table) => withSqlite(open, (db) => db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]),
      tables: async () =>
        withSqlite(open, (db) =>
          (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name),
        ),
      drop: async () => undefined,
    };
  }
  if (type === 'duckdb') {
    const path = `/local/sync-${randomBytes(4).toString('hex')}.duckdb`;
    const query = async (sql: string) => {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const instance = await DuckDBInstance.create(join(dataDir, path), { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      try {
        return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    };
    return {
      configuration: { destinationType: 'duckdb', destination_path: path, schema: 'main' },
      namespace: 'custom_namespace',
      rows: (table, schema = 'main') => query(`SELECT * FROM "${schema}"."${table}"`),
      tables: async (schema = 'main') =>
        (await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' ORDER BY table_name`)).map((row) =>
          String(row.table_name),
        ),
      drop: async () => undefined,
    };
  }
  const url = new URL(destinationDatabaseUrl());
  const schema = `sync_${randomBytes(6).toString('hex')}`;
  const query = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    configuration: postgresConfigurationFromUrl(url.href, schema),
    namespace: `${schema}_namespace`,
    rows: (table, inSchema = schema) => query(`SELECT * FROM "${inSchema}"."${table}"`),
    tables: async (inSchema = schema) =>
      (await query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [inSchema])).map((row) =>
        String(row.table_name),
      ),
    drop: async () => {
      await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await query(`DROP SCHEMA IF EXISTS "${schema}_namespace" CASCADE`);
    },
  };
}

function withSqlite<T>(open: () => Database.Database, read: (db: Database.Database) => T): T {
  const db = open();
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * A destination row back as the record it came from: `_airbyte_*` columns dropped, JSON columns
 * parsed, SQLite's 0/1 booleans and every database's numbers as the record schema types them.
 */
export function asRecord(row: Record<string, unknown>, columns: { name: string; type: string }[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { name, type } of columns) {
    const value = row[name];
    if (value === null || value === undefined) record[name] = null;
    else if (type === 'json') record[name] = typeof value === 'string' ? JSON.parse(value) : value;
    else if (type === 'boolean') record[name] = value === true || value === 1 || value === 1n;
    else if (type === 'integer' || type === 'number') record[name] = Number(value);
    else record[name] = String(value);
  }
  return record;
}
