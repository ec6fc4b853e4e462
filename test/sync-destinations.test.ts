import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresConfigurationFromUrl } from '../core/hosted/sync/destinations/postgres-connection.ts';
import { createDestination } from '../core/hosted/sync/destinations/create-destination.ts';
import type { ColumnType, Destination, DestinationType, TableSpec } from '../core/hosted/sync/destinations/destination.ts';
import { type DuckDbLease, leaseDuckDbFile } from '../core/hosted/sync/destinations/duckdb-files.ts';
import { createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const PASSWORD = 'Sekr3t-pa55word';
const JSONB_OID = 3802;

/** How a test reads a destination behind the destination's back, as a user's query would. */
interface Reader {
  /** Column name → declared type, upper case. */
  columnTypes(table: string): Promise<Record<string, string>>;
  primaryKey(table: string): Promise<string[]>;
  rows(table: string): Promise<Record<string, unknown>[]>;
  tables(): Promise<string[]>;
  close(): Promise<void>;
}

interface Backend {
  type: DestinationType;
  /** The column types each ColumnType and `_airbyte_*` column is created with. */
  types: Record<ColumnType | 'rawId' | 'extractedAt' | 'meta', string>;
  open(database: TestDatabase): { config: Record<string, unknown>; reader: () => Promise<Reader> };
  /** A configuration check() must refuse, and the words it must refuse it with. */
  badConfig(database: TestDatabase): { config: Record<string, unknown>; message: RegExp };
}

const sqliteBackend: Backend = {
  type: 'sqlite',
  types: { string: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', json: 'TEXT', rawId: 'TEXT', extractedAt: 'TEXT', meta: 'TEXT' },
  open: (database) => ({
    config: { destinationType: 'sqlite', destination_path: '/local/sync.sqlite' },
    reader: async () => {
      const db = new Database(join(database.dataDir, 'local', 'sync.sqlite'), { readonly: true });
      const info = (table: string) => db.prepare('SELECT name, type, pk FROM pragma_table_info(?)').all(table) as { name: string; type: string; pk: number }[];
      return {
        columnTypes: async (table) => Object.fromEntries(info(table).map((column) => [column.name, column.type.toUpperCase()])),
        primaryKey: async (table) =>
          info(table)
            .filter((column) => column.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((column) => column.name),
        rows: async (table) => db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`).all() as Record<string, unknown>[],
        tables: async () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name),
        close: async () => void db.close(),
      };
    },
  }),
  badConfig: (database) => {
    mkdirSync(join(database.dataDir, 'local'), { recursive: true });
    writeFileSync(join(database.dataDir, 'local', 'notes.txt'), 'this is not a database, just some text long enough to be read as a header');
    return { config: { destinationType: 'sqlite', destination_path: '/local/notes.txt' }, message: /not a database/ };
  },
};

const duckdbBackend: Backend = {
  type: 'duckdb',
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
  open: (database) => ({
    config: { destinationType: 'duckdb', destination_path: '/local/sync.duckdb', schema: 'landing' },
    reader: async () => {
      // The destination's own instance of the file: DuckDB lets one process hold a file once.
      const lease: DuckDbLease = await leaseDuckDbFile(join(database.dataDir, 'local', 'sync.duckdb'));
      const query = async (sql: string, params: string[] = []) => (await lease.connection.runAndReadAll(sql, params)).getRowObjectsJS();
      return {
        columnTypes: async (table) =>
          Object.fromEntries(
            (await query("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'landing' AND table_name = $1", [table])).map(
              (row) => [String(row.column_name), String(row.data_type).toUpperCase()],
            ),
          ),
        primaryKey: async (table) => {
          const rows = await query(
            "SELECT constraint_column_names AS names FROM duckdb_constraints() WHERE schema_name = 'landing' AND table_name = $1 AND constraint_type = 'PRIMARY KEY'",
            [table],
          );
          return (rows[0]?.names as string[] | undefined) ?? [];
        },
        rows: async (table) => query(`SELECT * FROM landing."${table.replaceAll('"', '""')}"`),
        tables: async () =>
          (await query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'landing'")).map((row) => String(row.table_name)),
        close: async () => {
          lease.connection.closeSync();
          lease.release();
        },
      };
    },
  }),
  badConfig: (database) => {
    mkdirSync(join(database.dataDir, 'local'), { recursive: true });
    writeFileSync(join(database.dataDir, 'local', 'notes.duckdb'), 'this is not a database, just some text long enough to be read as a header');
    return { config: { destinationType: 'duckdb', destination_path: '/local/notes.duckdb' }, message: /cannot open duckdb file "\/local\/notes\.duckdb"/ };
  },
};

/** The test database's server and a schema of its own, as the public API would configure it (a password set: the test server trusts). */
function postgresConfig(database: TestDatabase, change: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...postgresConfigurationFromUrl(database.databaseUrl!, database.schema!), password: PASSWORD, ssl_mode: { mode: 'prefer' }, ...change };
}

const postgresBackend: Backend = {
  type: 'postgres',
  types: {
    string: 'TEXT',
    integer: 'BIGINT',
    number: 'DOUBLE PRECISION',
    boolean: 'BOOLEAN',
    json: 'JSONB',
    rawId: 'TEXT',
    extractedAt: 'TIMESTAMP WITH TIME ZONE',
    meta: 'JSONB',
  },
  open: (database) => ({
    config: postgresConfig(database),
    reader: async () => {
      // jsonb as its text, as the other backends answer JSON, so a JSON string reads back the same everywhere.
      const types = {
        getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === JSONB_OID ? (text: string) => text : pg.types.getTypeParser(oid, format)),
      };
      const client = new pg.Client({ connectionString: database.databaseUrl, types });
      await client.connect();
      const schema = database.schema!;
      const query = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Record<string, unknown>[];
      return {
        columnTypes: async (table) =>
          Object.fromEntries(
            (await query('SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2', [schema, table])).map(
              (row) => [String(row.column_name), String(row.data_type).toUpperCase()],
            ),
          ),
        primaryKey: async (table) =>
          (
            await query(
              `SELECT kcu.column_name FROM information_schema.table_constraints tc
               JOIN information_schema.key_column_usage kcu ON kcu.constraint_schema = tc.constraint_schema AND kcu.constraint_name = tc.constraint_name
               WHERE tc.table_schema = $1 AND tc.table_name = $2 AND tc.constraint_type = 'PRIMARY KEY' ORDER BY kcu.ordinal_position`,
              [schema, table],
            )
          ).map((row) => String(row.column_name)),
        rows: async (table) => query(`SELECT * FROM "${schema}"."${table.replaceAll('"', '""')}"`),
        tables: async () =>
          (await query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema])).map((row) => String(row.table_name)),
        close: () => client.end(),
      };
    },
  }),
  badConfig: (database) => ({
    config: postgresConfig(database, { database: 'plugboard_no_such_database' }),
    message: /^cannot connect to postgres at [^:]+:\d+\/plugboard_no_such_database: .*does not exist/,
  }),
};

const BACKENDS: Backend[] = [sqliteBackend, duckdbBackend, ...(TEST_DATABASE_URL ? [postgresBackend] : [])];

const USERS: TableSpec = {
  name: 'users',
  columns: [
    { name: 'id', type: 'integer' },
    { name: 'name', type: 'string' },
    { name: 'score', type: 'number' },
    { name: 'active', type: 'boolean' },
    { name: 'profile', type: 'json' },
  ],
  primaryKey: ['id'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A row read back in JavaScript's terms whatever the backend: numbers, booleans, parsed JSON, ISO times. */
function normalized(row: Record<string, unknown>, table: TableSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const column of table.columns) {
    const value = row[column.name];
    if (value === null || value === undefined) continue;
    if (column.type === 'integer') out[column.name] = Number(value);
    if (column.type === 'boolean') out[column.name] = Boolean(value);
    if (column.type === 'json') out[column.name] = typeof value === 'string' ? JSON.parse(value) : value;
  }
  const meta = row._airbyte_meta;
  out._airbyte_meta = typeof meta === 'string' ? JSON.parse(meta) : meta;
  out._airbyte_extracted_at = new Date(row._airbyte_extracted_at as string | Date).toISOString();
  return out;
}

/** Only the record's own fields of each row, sorted by id: what most tests compare. */
function dataOf(rows: Record<string, unknown>[], table: TableSpec = USERS): Record<string, unknown>[] {
  return rows
    .map((row) => normalized(row, table))
    .map((row) => Object.fromEntries(table.columns.map((column) => [column.name, row[column.name] ?? null])))
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/** bytesSynced as Airbyte counts it: each record serialized as JSON, in UTF-8. */
const jsonBytes = (records: Record<string, unknown>[]) => records.reduce((sum, record) => sum + Buffer.byteLength(JSON.stringify(record)), 0);

const user = (id: number, name = `user ${id}`) => ({ id, name, score: id / 4, active: id % 2 === 0, profile: { tags: ['a', id], nested: { ok: true } } });

describe.each(BACKENDS)('the $type destination', (backend) => {
  let database: TestDatabase;
  let config: Record<string, unknown>;
  let openReader: () => Promise<Reader>;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeEach(async () => {
    database = await createTestDatabase(backend.type === 'postgres' ? 'postgres' : 'sqlite');
    ({ config, reader: openReader } = backend.open(database));
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await database.drop();
  });

  function destination(configuration = config): Destination {
    const created = createDestination(backend.type, configuration, { dataDir: database.dataDir });
    cleanups.push(() => created.close());
    return created;
  }

  async function reader(): Promise<Reader> {
    const opened = await openReader();
    cleanups.push(() => opened.close());
    return opened;
  }

  async function writeAll(target: Destination, table: TableSpec, mode: 'overwrite' | 'append_dedup', ...batches: Record<string, unknown>[][]) {
    const writer = await target.openStream(table, mode, { syncId: 7 });
    for (const batch of batches) await writer.write(batch);
    await writer.commit();
  }

  it('creates the typed table: a column per field, the primary key, the _airbyte_ columns', async () => {
    await writeAll(destination(), USERS, 'append_dedup', [user(1)]);
    const read = await reader();
    const t = backend.types;
    expect(await read.columnTypes('users')).toEqual({
      id: t.integer,
      name: t.string,
      score: t.number,
      active: t.boolean,
      profile: t.json,
      _airbyte_raw_id: t.rawId,
      _airbyte_extracted_at: t.extractedAt,
      _airbyte_meta: t.meta,
    });
    expect(await read.primaryKey('users')).toEqual(['id']);
  });

  it('writes rows that read back as written, and answers the size of the records as JSON in bytes', async () => {
    const records = [
      user(1),
      { id: 2, name: 'Zoë "quoted" \\ back\nslash, 日本語 🎉', score: -1.5e-7, active: false, profile: [1, 'two', null, { three: 3 }] },
      { id: 3, name: null, score: 2 ** 53 + 2, active: true, profile: 'just a string' },
      { id: 4 },
    ];
    const writer = await destination().openStream(USERS, 'append_dedup', { syncId: 7 });
    const bytes = await writer.write(records);
    await writer.commit();
    expect(bytes).toBe(jsonBytes(records));
    expect(dataOf(await (await reader()).rows('users'))).toEqual([
      user(1),
      records[1],
      records[2],
      { id: 4, name: null, score: null, active: null, profile: null },
    ]);
  });

  it('text and JSON holding tabs, line breaks, backslashes and what COPY reads as markers read back as written', async () => {
    const tricky = ['a\tb', 'line\nbreak\r\nwindows', 'back\\slash', '\\N', '\\.', 'ends with \\', '\t', ''];
    const records = tricky.map((name, i) => ({ id: i + 1, name, profile: { name, list: [name] } }));
    await writeAll(destination(), USERS, 'overwrite', records);
    const rows = dataOf(await (await reader()).rows('users'));
    expect(rows.map((row) => [row.name, row.profile])).toEqual(tricky.map((name) => [name, { name, list: [name] }]));
  });

  it('fills the _airbyte_ columns: a uuid per row, the time of the write, the sync id', async () => {
    const before = Date.now();
    await writeAll(destination(), USERS, 'append_dedup', [user(1), user(2), user(3)]);
    const after = Date.now();
    const rows = (await (await reader()).rows('users')).map((row) => normalized(row, USERS));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row._airbyte_raw_id).toMatch(UUID);
      const at = Date.parse(row._airbyte_extracted_at as string);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
      expect(row._airbyte_meta).toEqual({ changes: [], sync_id: 7 });
    }
    expect(new Set(rows.map((row) => row._airbyte_raw_id)).size).toBe(3);
  });

  it('writes a value that does not fit its column as NULL, noted in _airbyte_meta', async () => {
    await writeAll(destination(), USERS, 'append_dedup', [
      { id: 1, name: 42, score: 'not a number', active: 'yes', profile: { fine: true } },
      { id: 2, name: { an: 'object' }, score: 1.5, active: true, profile: null },
    ]);
    const rows = (await (await reader()).rows('users')).map((row) => normalized(row, USERS)).sort((a, b) => Number(a.id) - Number(b.id));
    const serializationError = (field: string) => ({ field, change: 'NULLED', reason: 'DESTINATION_SERIALIZATION_ERROR' });
    expect(rows[0]).toMatchObject({ id: 1, name: '42', score: null, active: null, profile: { fine: true } });
    expect(rows[0]!._airbyte_meta).toEqual({ changes: [serializationError('score'), serializationError('active')], sync_id: 7 });
    // A string column takes any value as its text, as Airbyte's typing does.
    expect(rows[1]).toMatchObject({ id: 2, name: '{"an":"object"}', score: 1.5, active: true });
    expect(rows[1]!._airbyte_meta).toEqual({ changes: [], sync_id: 7 });
  });

  it('a lone UTF-16 surrogate is U+FFFD in text, and JSON holding one (which no database takes as JSON) is NULL and noted', async () => {
    await writeAll(destination(), USERS, 'append_dedup', [
      { id: 1, name: 'cut \ud83d', profile: { text: 'cut \ud83d' } },
      { id: 2, name: 'whole 😀', profile: { text: '😀' } },
    ]);
    const rows = (await (await reader()).rows('users')).map((row) => normalized(row, USERS)).sort((a, b) => Number(a.id) - Number(b.id));
    expect(rows.map((row) => [row.name, row.profile, (row._airbyte_meta as { changes: { field: string }[] }).changes.map((change) => change.field)])).toEqual([
      ['cut \ufffd', null, ['profile']],
      ['whole 😀', { text: '😀' }, []],
    ]);
  });

  it('integers out of the 64-bit range or with a fraction do not fit an integer column', async () => {
    const table: TableSpec = {
      name: 'counts',
      columns: [
        { name: 'id', type: 'string' },
        { name: 'n', type: 'integer' },
      ],
      primaryKey: ['id'],
    };
    await writeAll(destination(), table, 'append_dedup', [
      { id: 'a', n: 2 ** 63 },
      { id: 'b', n: 1.5 },
      { id: 'c', n: -(2 ** 62) },
    ]);
    const rows = (await (await reader()).rows('counts')).map((row) => normalized(row, table)).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(rows.map((row) => [row.id, row.n, (row._airbyte_meta as { changes: unknown[] }).changes.length])).toEqual([
      ['a', null, 1],
      ['b', null, 1],
      ['c', -(2 ** 62), 0],
    ]);
  });

  it('overwrite: readers see the old table until commit, then only the new one', async () => {
    const target = destination();
    await writeAll(target, USERS, 'overwrite', [user(1), user(2)]);
    const writer = await target.openStream(USERS, 'overwrite', { syncId: 8 });
    await writer.write([user(3), user(4)]);
    await writer.write([user(5)]);
    const read = await reader();
    expect(dataOf(await read.rows('users'))).toEqual([user(1), user(2)]);
    await writer.commit();
    expect(dataOf(await read.rows('users'))).toEqual([user(3), user(4), user(5)]);
    expect((await read.tables()).sort()).toEqual(['users']);
  });

  it('overwrite: abort drops the staging table and keeps the old table', async () => {
    const target = destination();
    await writeAll(target, USERS, 'overwrite', [user(1)]);
    const writer = await target.openStream(USERS, 'overwrite', { syncId: 8 });
    await writer.write([user(2)]);
    await writer.abort();
    const read = await reader();
    expect(dataOf(await read.rows('users'))).toEqual([user(1)]);
    expect(await read.tables()).toEqual(['users']);
  });

  it('overwrite: a staging table left by a crashed attempt is replaced, and an empty sync empties the table', async () => {
    const target = destination();
    const crashed = await target.openStream(USERS, 'overwrite', { syncId: 1 });
    await crashed.write([user(9)]);
    await writeAll(target, USERS, 'overwrite', [user(1)]);
    expect(dataOf(await (await reader()).rows('users'))).toEqual([user(1)]);
    await writeAll(target, USERS, 'overwrite');
    expect(await (await reader()).rows('users')).toEqual([]);
  });

  it('overwrite: a record paged twice by the source is one row', async () => {
    await writeAll(destination(), USERS, 'overwrite', [user(1), user(2)], [user(2, 'again')]);
    expect(dataOf(await (await reader()).rows('users'))).toEqual([user(1), user(2, 'again')]);
  });

  it('append_dedup: a batch written twice, or a key twice in a batch, leaves one row per key, the last written', async () => {
    const target = destination();
    const writer = await target.openStream(USERS, 'append_dedup', { syncId: 9 });
    await writer.write([user(1), user(2), user(3)]);
    await writer.write([user(1), user(2), user(3)]);
    await writer.write([user(2, 'first'), user(4), user(2, 'second')]);
    await writer.commit();
    expect(dataOf(await (await reader()).rows('users'))).toEqual([user(1), user(2, 'second'), user(3), user(4)]);
  });

  it('append_dedup: rows are committed when write resolves, before commit', async () => {
    const writer = await destination().openStream(USERS, 'append_dedup', { syncId: 9 });
    await writer.write([user(1)]);
    expect(dataOf(await (await reader()).rows('users'))).toEqual([user(1)]);
    await writer.commit();
  });

  it('append_dedup: a field added to the record schema is added as a column', async () => {
    const target = destination();
    await writeAll(target, USERS, 'append_dedup', [user(1)]);
    const wider: TableSpec = { ...USERS, columns: [...USERS.columns, { name: 'joined_at', type: 'string' }, { name: 'Visits', type: 'integer' }] };
    await writeAll(target, wider, 'append_dedup', [{ ...user(2), joined_at: '2024-05-01', Visits: 3 }]);
    const read = await reader();
    expect(await read.columnTypes('users')).toMatchObject({ joined_at: backend.types.string, Visits: backend.types.integer });
    expect(dataOf(await read.rows('users'), wider)).toEqual([
      { ...user(1), joined_at: null, Visits: null },
      { ...user(2), joined_at: '2024-05-01', Visits: 3 },
    ]);
  });

  it('a record without its primary key is refused with the key named', async () => {
    const writer = await destination().openStream(USERS, 'append_dedup', { syncId: 9 });
    await expect(writer.write([{ name: 'no id' }])).rejects.toThrow(/no usable value for its primary key "id"/);
  });

  it('quotes names: quotes, spaces and SQL in table and column names are just names', async () => {
    const table: TableSpec = {
      name: 'we"ird; DROP TABLE users; --',
      columns: [
        { name: 'the "id"', type: 'integer' },
        { name: 'select', type: 'string' },
      ],
      primaryKey: ['the "id"'],
    };
    await writeAll(destination(), table, 'overwrite', [{ 'the "id"': 1, select: "Robert'); DROP TABLE students;--" }]);
    const rows = await (await reader()).rows(table.name);
    expect(rows.map((row) => [Number(row['the "id"']), row.select])).toEqual([[1, "Robert'); DROP TABLE students;--"]]);
  });

  it('dropTables drops the tables named, missing ones are fine', async () => {
    const target = destination();
    await writeAll(target, USERS, 'append_dedup', [user(1)]);
    await writeAll(target, { ...USERS, name: 'others' }, 'append_dedup', [user(1)]);
    await target.dropTables(['users', 'never_created']);
    expect(await (await reader()).tables()).toEqual(['others']);
  });

  it('check() passes on a good configuration and leaves no table behind', async () => {
    const target = destination();
    await target.check();
    await writeAll(target, USERS, 'append_dedup', [user(1)]);
    expect(await (await reader()).tables()).toEqual(['users']);
  });

  it('check() fails on a bad configuration with a clear message naming no secret', async () => {
    const bad = backend.badConfig(database);
    const error = await destination(bad.config)
      .check()
      .then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(bad.message);
    expect(error!.message).not.toContain(PASSWORD);
  });
});

describe('bytes written', () => {
  it('are counted alike on every destination: each record as JSON in UTF-8, a key twice in a batch twice, a bigint as its digits in quotes', async () => {
    const records: Record<string, unknown>[] = [
      user(1),
      { id: 2, name: 'Zoë 日本語 🎉\ttab', profile: { deep: [1, { x: 'y\u0000' }] }, ignored: 'a field with no column' },
      user(1, 'again'),
      { id: 3, big: 2n ** 70n },
    ];
    const expected = records.reduce<number>(
      (sum, record) => sum + Buffer.byteLength(JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))),
      0,
    );
    const counted: Partial<Record<DestinationType, number>> = {};
    for (const backend of BACKENDS) {
      const database = await createTestDatabase(backend.type === 'postgres' ? 'postgres' : 'sqlite');
      const target = createDestination(backend.type, backend.open(database).config, { dataDir: database.dataDir });
      try {
        const writer = await target.openStream(USERS, 'overwrite', { syncId: 1 });
        counted[backend.type] = await writer.write(records);
        await writer.commit();
      } finally {
        await target.close();
        await database.drop();
      }
    }
    expect(counted).toEqual(Object.fromEntries(BACKENDS.map((backend) => [backend.type, expected])));
  });
});

describe.each([sqliteBackend, duckdbBackend])('the $type destination path', (backend) => {
  const dataDir = '/srv/plugboard/data';
  const configFor = (destination_path: string) => ({ destinationType: backend.type, destination_path });

  it.each(['../outside.db', '/local/../../outside.db', '/..', '/', '/plugboard.db', '/plugboard.db-wal', '/data-keys.json', '/cloud-api.db'])(
    'refuses %s',
    (path) => {
      expect(() => createDestination(backend.type, configFor(path), { dataDir })).toThrow(
        /destination_path .* (inside the data directory|Plugboard's own files)/,
      );
    },
  );

  it('reads an absolute path inside the data directory, as Airbyte reads it inside its local mount', () => {
    expect(() => createDestination(backend.type, configFor('/local/..x/sync.db'), { dataDir })).not.toThrow();
    expect(() => createDestination(backend.type, configFor('nested/dir/sync.db'), { dataDir })).not.toThrow();
  });

  it('refuses a path through a symbolic link that leads out of the data directory, and takes one that stays inside', () => {
    const root = mkdtempSync(join(tmpdir(), 'plugboard-links-'));
    const outside = mkdtempSync(join(tmpdir(), 'plugboard-outside-'));
    try {
      mkdirSync(join(root, 'local'));
      symlinkSync(outside, join(root, 'local', 'out'));
      symlinkSync(join(outside, 'missing.db'), join(root, 'local', 'dangling.db'));
      symlinkSync(join(root, 'local'), join(root, 'in'));
      for (const path of ['/local/out/sync.db', '/local/dangling.db']) {
        expect(() => createDestination(backend.type, configFor(path), { dataDir: root }), path).toThrow(/symbolic link that leads out of the data directory/);
      }
      expect(() => createDestination(backend.type, configFor('/in/sync.db'), { dataDir: root })).not.toThrow();
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('destination configurations', () => {
  const dataDir = '/srv/plugboard/data';

  it.each(['md:', 'motherduck:my_db', 'MD:x'])('duckdb refuses MotherDuck path %s', (destination_path) => {
    expect(() => createDestination('duckdb', { destinationType: 'duckdb', destination_path }, { dataDir })).toThrow(/MotherDuck .* is not supported/);
  });

  it('refuses a configuration of another destination type', () => {
    expect(() => createDestination('sqlite', { destinationType: 'duckdb', destination_path: '/x.db' }, { dataDir })).toThrow(/destinationType "duckdb"/);
  });

  it.each([
    [
      { ssl_mode: { mode: 'verify-full', ca_certificate: 'x', client_certificate: 'y', client_key: 'z' } },
      /ssl_mode "verify-full" is not supported \(use disable, prefer, require\)/,
    ],
    [{ ssl_mode: { mode: 'allow' } }, /ssl_mode "allow" is not supported/],
    [{ tunnel_method: { tunnel_method: 'SSH_KEY_AUTH', ssh_key: 'k' } }, /tunnel_method SSH_KEY_AUTH is not supported/],
    [{ port: '5432' }, /"port" must be an integer/],
    [{ host: '' }, /"host" must be a non-empty string/],
  ])('postgres refuses %j', (change, message) => {
    const config = { destinationType: 'postgres', host: 'db.example', database: 'd', username: 'u', password: PASSWORD, ...change };
    expect(() => createDestination('postgres', config, { dataDir })).toThrow(message);
  });

  it('postgres connects only on first use', () => {
    expect(() => createDestination('postgres', { destinationType: 'postgres', host: '203.0.113.1', database: 'd', username: 'u' }, { dataDir })).not.toThrow();
  });
});

describe.runIf(TEST_DATABASE_URL)('the postgres destination on the test server', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase('postgres');
  });

  afterEach(async () => {
    await database.drop();
  });

  it('an unreachable server is refused naming host, port and database, not the password', async () => {
    const target = createDestination('postgres', postgresConfig(database, { host: '127.0.0.1', port: 1 }), { dataDir: database.dataDir });
    const error = await target.check().then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    await target.close();
    expect(error?.message).toMatch(/^cannot connect to postgres at 127\.0\.0\.1:1\/\w+: .*ECONNREFUSED/);
    expect(error?.message).not.toContain(PASSWORD);
  });

  it('creates the configured schema when missing', async () => {
    const schema = `${database.schema}_made`;
    const target = createDestination('postgres', postgresConfig(database, { schema }), { dataDir: database.dataDir });
    try {
      await target.check();
      const client = new pg.Client({ connectionString: database.databaseUrl });
      await client.connect();
      const found = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      expect(found.rowCount).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('a full refresh leaves the names a table created directly has (its primary key and index), however often it runs', async () => {
    const names = ['users', 'a_stream_name_long_enough_that_its_staging_name_must_be_hashed_', 'ユーザーの一覧の長い名前です一覧'];
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    const control = `${database.schema}_direct`;
    const target = createDestination('postgres', postgresConfig(database), { dataDir: database.dataDir });
    try {
      const keyNames = async (schema: string, table: string) => {
        const constraints = await client.query(
          `SELECT conname FROM pg_constraint WHERE conrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass ORDER BY conname`,
          [schema, table],
        );
        const indexes = await client.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY indexname', [schema, table]);
        return { constraints: constraints.rows.map((row) => row.conname), indexes: indexes.rows.map((row) => row.indexname) };
      };
      // What CREATE TABLE under each name gives, in a schema of its own.
      await client.query(`CREATE SCHEMA "${control}"`);
      // A table of before this fix: its key still named after the staging table it was swapped in from.
      await client.query(`CREATE TABLE "${database.schema}".users (id BIGINT CONSTRAINT users_airbyte_tmp_pkey PRIMARY KEY)`);
      for (const name of names) {
        await client.query(`CREATE TABLE "${control}"."${name}" (id BIGINT PRIMARY KEY, name TEXT)`);
        const direct = await keyNames(control, name);
        expect(direct.constraints).toHaveLength(1);
        for (let refresh = 1; refresh <= 3; refresh++) {
          const writer = await target.openStream({ ...USERS, name }, 'overwrite', { syncId: refresh });
          await writer.write([user(refresh), user(refresh + 10)]);
          await writer.commit();
          expect(await keyNames(database.schema!, name), `${name}, refresh ${refresh}`).toEqual(direct);
        }
      }
    } finally {
      await target.close();
      await client.query(`DROP SCHEMA IF EXISTS "${control}" CASCADE`);
      await client.end();
    }
  });

  it('a text with U+0000, which PostgreSQL cannot store, is written as NULL and noted', async () => {
    const target = createDestination('postgres', postgresConfig(database), { dataDir: database.dataDir });
    try {
      const writer = await target.openStream(USERS, 'append_dedup', { syncId: 3 });
      await writer.write([
        { id: 1, name: 'nul\u0000byte', profile: { text: 'also \u0000 here', fine: 'a \\u0000 b' } },
        { id: 2, profile: { fine: 'a \\u0000 b' } },
      ]);
      await writer.commit();
    } finally {
      await target.close();
    }
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    const rows = (await client.query(`SELECT id, name, profile, _airbyte_meta FROM "${database.schema}".users ORDER BY id`)).rows;
    await client.end();
    expect(rows[0]).toMatchObject({ id: '1', name: null, profile: null });
    expect(rows[0]._airbyte_meta.changes.map((change: { field: string }) => change.field)).toEqual(['name', 'profile']);
    expect(rows[1]).toMatchObject({ id: '2', profile: { fine: 'a \\u0000 b' } });
  });
});
