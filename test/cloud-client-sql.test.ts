import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/cloud-client/errors.ts';
import {
  columnTypesFromJsonSchema,
  openSqlDestination,
  type SqlColumnType,
  type SqlDestination,
  type SqlDestinationOptions,
} from '../core/cloud-client/sql/sql-destination.ts';
import { SECRET_MASK } from '../core/hosted/cloud-api/configuration-secrets.ts';
import { createDestination, workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import type { TableSpec } from '../core/hosted/sync/destinations/destination.ts';
import { DESTINATION_TYPES, type TestDestination, testDestination } from './helpers/sync-destinations.ts';

const PASSWORD = 'Sekr3t-pa55word';
const PREFIX = 'pfx_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const USERS: TableSpec = {
  name: `${PREFIX}users`,
  columns: [
    { name: 'id', type: 'integer' },
    { name: 'name', type: 'string' },
    { name: 'score', type: 'number' },
    { name: 'active', type: 'boolean' },
    { name: 'profile', type: 'json' },
    { name: 'tags', type: 'json' },
  ],
  primaryKey: ['id'],
};

/** The column types of USERS as the catalog's record schema gives them (sync-catalog.ts's shapes). */
const USERS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'] },
    name: { type: ['string', 'null'] },
    score: { type: ['number', 'null'] },
    active: { type: ['boolean', 'null'] },
    profile: {},
    tags: {},
  },
};

const user = (id: number) => ({
  id,
  name: `user ${id}`,
  score: id / 4,
  active: id % 2 === 0,
  profile: { nested: { ok: true, n: id }, list: [1, 'two', null] },
  tags: ['a', id],
});

const RECORDS: Record<string, unknown>[] = [
  user(1),
  user(2),
  { id: 3, name: 'Zoë "quoted" \\ back\nslash, 日本語 🎉', score: -1.5e-7, active: false, profile: [1, 'two', null, { three: 3 }], tags: [] },
  { id: 4, name: '{"looks":"like json"}', score: 2 ** 53 + 2, active: true, profile: 'just a string', tags: 42 },
  { id: 5 },
  { id: -(2 ** 40), name: '', score: 0, active: false, profile: {}, tags: null },
];

/** A record as a row reads back: every column present, null where the record had nothing. */
function asRow(record: Record<string, unknown>, table: TableSpec = USERS): Record<string, unknown> {
  return Object.fromEntries(table.columns.map((column) => [column.name, record[column.name] ?? null]));
}

/** A dataset row without its `_airbyte_*` columns. */
function dataOf(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith('_airbyte_')));
}

const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.id) - Number(b.id);

describe.each(DESTINATION_TYPES)('reading a %s destination', (type) => {
  let dataDir: string;
  let localRoot: string;
  let target: TestDestination;
  const opened: SqlDestination[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'plugboard-cloud-sql-'));
    // As the server does: a workspace's file destinations live under its own folder of the data directory.
    localRoot = workspaceDataDir(dataDir, 'workspace-1');
    target = await testDestination(type, localRoot);
  });

  afterEach(async () => {
    for (const destination of opened.splice(0)) await destination.close();
    await target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Writes the batches as a sync does, through the destination the server would use, and closes it. */
  async function write(table: TableSpec, batches: Record<string, unknown>[][], configuration = target.configuration): Promise<void> {
    const destination = createDestination(type, configuration, { dataDir: localRoot });
    try {
      const writer = await destination.openStream(table, 'overwrite', { syncId: 7 });
      for (const batch of batches) await writer.write(batch);
      await writer.commit();
    } finally {
      await destination.close();
    }
  }

  function open(options: SqlDestinationOptions = {}, configuration = target.configuration): SqlDestination {
    const destination = openSqlDestination(type, configuration, {
      localRoot,
      columnTypes: { [USERS.name]: columnTypesFromJsonSchema(USERS_JSON_SCHEMA) },
      ...options,
    });
    opened.push(destination);
    return destination;
  }

  it('reads back each record as written: numbers, booleans, nested objects and arrays, nulls', async () => {
    const before = Date.now();
    await write(USERS, [RECORDS]);
    const after = Date.now();
    const rows = await open().dataset(USERS.name).toArray();
    expect(rows.map(dataOf).sort(byId)).toEqual(RECORDS.map((record) => asRow(record)).sort(byId));
    for (const row of rows) {
      expect(row._airbyte_raw_id).toMatch(UUID);
      expect(row._airbyte_meta).toEqual({ changes: [], sync_id: 7 });
      expect(row._airbyte_extracted_at).toBeInstanceOf(Date);
      const at = (row._airbyte_extracted_at as Date).getTime();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
    const four = rows.find((row) => row.id === 4)!;
    expect(typeof four.score).toBe('number');
    expect(four.name).toBe('{"looks":"like json"}');
  });

  it('reads a value the sync could not write as NULL, with its change in _airbyte_meta', async () => {
    await write(USERS, [[{ id: 1, name: 'x', score: 'not a number', active: 'yes' }]]);
    const [row] = await open().dataset(USERS.name).toArray();
    expect(dataOf(row!)).toEqual({ id: 1, name: 'x', score: null, active: null, profile: null, tags: null });
    expect((row!._airbyte_meta as { changes: { field: string }[] }).changes.map((change) => change.field)).toEqual(['score', 'active']);
  });

  it('streams a table over several batches, row for row, and lets the engine answer meanwhile', async () => {
    const records = Array.from({ length: 2_345 }, (_, i) => user(i + 1));
    await write(USERS, [records.slice(0, 1000), records.slice(1000, 2000), records.slice(2000)]);
    const destination = open({ batchSize: 500 });
    const read: Record<string, unknown>[] = [];
    for await (const row of destination.dataset(USERS.name)) {
      read.push(dataOf(row));
      // The dataset reads on a connection of its own: the engine is free between (and during) its batches.
      if (read.length % 700 === 0) {
        const counted = await destination.table(USERS.name).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
        expect(Number(counted.n)).toBe(records.length);
      }
    }
    expect(read.sort(byId)).toEqual(records.map((record) => asRow(record)));
  });

  it('a dataset left early releases its connection and snapshot: reading again and again still works', async () => {
    const records = Array.from({ length: 120 }, (_, i) => user(i + 1));
    await write(USERS, [records]);
    const destination = open({ batchSize: 25 });
    // More early exits than PostgreSQL's pool has connections (10): each must give its connection back.
    for (let round = 0; round < 12; round++) {
      let seen = 0;
      for await (const _row of destination.dataset(USERS.name)) {
        if (++seen === 30) break;
      }
      expect(seen).toBe(30);
    }
    expect(await destination.dataset(USERS.name).toArray()).toHaveLength(120);
  });

  // DuckDB lets one instance write a file while none reads it: its reader and a sync cannot overlap at all.
  it.skipIf(type === 'duckdb')('a full refresh swapped in mid-read is not held up, and the dataset reads on the table as it was', async () => {
    const old = Array.from({ length: 300 }, (_, i) => user(i + 1));
    await write(USERS, [old]);
    const destination = open({ batchSize: 50 });
    const read: Record<string, unknown>[] = [];
    for await (const row of destination.dataset(USERS.name)) {
      read.push(dataOf(row));
      if (read.length === 60) await write(USERS, [[user(1000), user(1001)]]);
    }
    expect(read.sort(byId)).toEqual(old.map((record) => asRow(record)));
    expect((await destination.dataset(USERS.name).toArray()).map(dataOf).sort(byId)).toEqual([asRow(user(1000)), asRow(user(1001))]);
  });

  it('names the table <prefix><stream>, the database and the schema as the destination does', async () => {
    await write(USERS, [[user(1)]]);
    const destination = open();
    expect(destination.destinationType).toBe(type);
    expect(destination.tableName('users', PREFIX)).toBe('pfx_users');
    expect(destination.tableName('users')).toBe('users');
    if (type === 'postgres') {
      expect(destination.databaseName()).toBe(target.configuration.database);
      expect(destination.schemaName()).toBe(target.configuration.schema);
    } else {
      // /local/sync-<hex>.sqlite → sync-<hex>, as DuckDB names a file's catalog.
      expect(destination.databaseName()).toBe(String(target.configuration.destination_path).slice('/local/'.length).split('.')[0]);
      expect(destination.schemaName()).toBe('main');
    }
    if (type === 'duckdb') {
      const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(destination.engine);
      expect(rows[0]?.name).toBe(destination.databaseName());
    }
    const row = await destination.table(destination.tableName('users', PREFIX)).select(['id', 'name']).where('id', '=', 1).executeTakeFirstOrThrow();
    expect({ id: Number(row.id), name: row.name }).toEqual({ id: 1, name: 'user 1' });
  });

  it('the cache reads each stream of a prefix', async () => {
    await write(USERS, [[user(1), user(2)]]);
    const cache = open().cache(PREFIX);
    expect(cache.tableName('users')).toBe('pfx_users');
    expect(cache.schemaName).toBe(type === 'postgres' ? target.configuration.schema : 'main');
    const rows = await cache.dataset<Record<string, unknown>>('users').toArray();
    expect(rows.map(dataOf).sort(byId)).toEqual([asRow(user(1)), asRow(user(2))]);
    const counted = await cache.engine
      .selectFrom(sql.table(`${cache.schemaName}.${cache.tableName('users')}`).as('t'))
      .selectAll()
      .execute();
    expect(counted).toHaveLength(2);
  });

  it('a table the destination does not have is an InputError naming it', async () => {
    await write(USERS, [[user(1)]]);
    const error = await open()
      .dataset('no_such_stream')
      .toArray()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/no table "no_such_stream" in schema/);
  });

  it('quoted names are just names', async () => {
    const table: TableSpec = {
      name: `${PREFIX}we"ird.v2 as x; DROP TABLE x; --`,
      columns: [
        { name: 'the "id"', type: 'integer' },
        { name: 'select', type: 'string' },
      ],
      primaryKey: ['the "id"'],
    };
    await write(table, [[{ 'the "id"': 1, select: "Robert'); DROP TABLE students;--" }]]);
    const destination = open();
    expect((await destination.dataset(table.name).toArray()).map(dataOf)).toEqual([{ 'the "id"': 1, select: "Robert'); DROP TABLE students;--" }]);
    const row = await destination.table(table.name).select('select').executeTakeFirstOrThrow();
    expect(row.select).toBe("Robert'); DROP TABLE students;--");
  });

  if (type === 'sqlite') {
    it('without the record schema, SQLite answers booleans as 0/1 and JSON as its text (the types it stores them in)', async () => {
      await write(USERS, [[user(2)]]);
      const [row] = await open({ columnTypes: {} }).dataset(USERS.name).toArray();
      expect(dataOf(row!)).toEqual({ ...asRow(user(2)), active: 1, profile: JSON.stringify(user(2).profile), tags: '["a",2]' });
      expect(row!._airbyte_meta).toEqual({ changes: [], sync_id: 7 });
    });
  } else {
    it('without the record schema, the declared types type every value', async () => {
      await write(USERS, [RECORDS]);
      const rows = await open({ columnTypes: {} }).dataset(USERS.name).toArray();
      expect(rows.map(dataOf).sort(byId)).toEqual(RECORDS.map((record) => asRow(record)).sort(byId));
    });
  }

  if (type === 'duckdb') {
    it('reads the configured schema', async () => {
      const configuration = { ...target.configuration, schema: 'landing' };
      await write(USERS, [[user(1)]], configuration);
      const destination = open({}, configuration);
      expect(destination.schemaName()).toBe('landing');
      expect((await destination.dataset(USERS.name).toArray()).map(dataOf)).toEqual([asRow(user(1))]);
    });
  }

  if (type === 'postgres') {
    it('reads through a server-side cursor, a batch per FETCH', async () => {
      await write(USERS, [Array.from({ length: 30 }, (_, i) => user(i + 1))]);
      const destination = open({ batchSize: 10 });
      let fetches: string[] = [];
      for await (const _row of destination.dataset(USERS.name)) {
        if (fetches.length > 0) continue;
        const activity = await sql<{ query: string }>`SELECT query FROM pg_stat_activity
          WHERE application_name = 'plugboard-cloud-client' AND pid <> pg_backend_pid() AND query LIKE 'FETCH %'`.execute(destination.engine);
        fetches = activity.rows.map((row) => row.query);
      }
      expect(fetches).toEqual(['FETCH FORWARD 10 FROM plugboard_dataset']);
    });

    it('takes the masked password from options.secrets, and honours ssl_mode as the destination does (prefer falls back, require does not)', async () => {
      await write(USERS, [[user(1)]]);
      const masked = { ...target.configuration, password: SECRET_MASK, ssl_mode: { mode: 'prefer' } };
      const destination = open({ secrets: { password: PASSWORD } }, masked);
      expect((await destination.dataset(USERS.name).toArray()).map(dataOf)).toEqual([asRow(user(1))]);
      const required = open({ secrets: { password: PASSWORD } }, { ...masked, ssl_mode: { mode: 'require' } });
      const error = await required
        .dataset(USERS.name)
        .toArray()
        .then(
          () => undefined,
          (caught: unknown) => caught as Error,
        );
      // The test server has no TLS: require must not fall back to plain text.
      expect(error?.message).toMatch(/^cannot connect to postgres at .*SSL/);
      expect(error?.message).not.toContain(PASSWORD);
    });

    it('an unreachable server fails naming host, port and database, never the password', async () => {
      const destination = open({ secrets: { password: PASSWORD } }, { ...target.configuration, host: '127.0.0.1', port: 1, password: SECRET_MASK });
      const error = await destination.engine
        .selectFrom(sql.table('x').as('x'))
        .selectAll()
        .execute()
        .then(
          () => undefined,
          (caught: unknown) => caught as Error,
        );
      expect(error?.message).toMatch(/^cannot connect to postgres at 127\.0\.0\.1:1\/\w+: .*ECONNREFUSED/);
      expect(error?.message).not.toContain(PASSWORD);
    });
  }
});

describe('openSqlDestination refuses', () => {
  const localRoot = '/srv/plugboard/data/workspaces/w1';
  const postgres = { destinationType: 'postgres', host: 'db.example', port: 5432, database: 'warehouse', username: 'reader', password: SECRET_MASK };

  const refusal = (run: () => unknown): InputError => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return error as InputError;
    }
    throw new Error('expected an InputError');
  };

  it.each(['bigquery', 'snowflake', 'dev-null', ''])('a destination type it cannot read: %j', (type) => {
    expect(refusal(() => openSqlDestination(type, {}, { localRoot })).message).toMatch(/not supported: only sqlite, postgres, duckdb/);
  });

  it('a masked password with no secret given, naming the field and no value', () => {
    const error = refusal(() => openSqlDestination('postgres', postgres));
    expect(error.message).toMatch(/"password" is masked .* options\.secrets\.password/);
    expect(error.input).toBe('password');
  });

  it('takes a masked password supplied as a secret (connecting only on first use)', async () => {
    const destination = openSqlDestination('postgres', postgres, { secrets: { password: PASSWORD } });
    expect([destination.databaseName(), destination.schemaName()]).toEqual(['warehouse', 'public']);
    await destination.close();
  });

  it.each(['sqlite', 'duckdb'])('a %s path leaving the local root', (type) => {
    for (const path of ['../outside.db', '/local/../../outside.db', '/..', '/', '../../../../etc/passwd']) {
      const error = refusal(() => openSqlDestination(type, { destinationType: type, destination_path: path }, { localRoot }));
      expect(error.message).toMatch(/destination_path .* must name a file inside the local root/);
    }
  });

  it.each(['sqlite', 'duckdb'])('a %s file without a local root to read it under', (type) => {
    expect(refusal(() => openSqlDestination(type, { destination_path: '/local/x.db' })).message).toMatch(/options\.localRoot/);
  });

  it('a configuration of another destination type, MotherDuck, and postgres settings the destination does not support', () => {
    expect(refusal(() => openSqlDestination('sqlite', { destinationType: 'duckdb', destination_path: '/x.db' }, { localRoot })).message).toMatch(
      /destinationType "duckdb"/,
    );
    expect(refusal(() => openSqlDestination('duckdb', { destination_path: 'md:my_db' }, { localRoot })).message).toMatch(/MotherDuck/);
    expect(refusal(() => openSqlDestination('postgres', { ...postgres, password: 'p', ssl_mode: { mode: 'verify-full' } })).message).toMatch(
      /ssl_mode "verify-full" is not supported/,
    );
    expect(refusal(() => openSqlDestination('postgres', { ...postgres, password: 'p', host: '' })).message).toMatch(/"host" must be a non-empty string/);
  });

  it('reads a path inside the local root as the server reads it inside the data directory', async () => {
    for (const path of ['/local/sync.sqlite', 'nested/dir/sync.db', '/local/..x/sync.db']) {
      await openSqlDestination('sqlite', { destination_path: path }, { localRoot }).close();
    }
  });
});

describe('columnTypesFromJsonSchema', () => {
  it('types the columns as the sync does: one scalar type (null aside) is that type, anything else JSON', () => {
    const types: Record<string, SqlColumnType> = columnTypesFromJsonSchema({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['null', 'integer'] },
        c: { type: ['number'] },
        d: { type: ['boolean', 'null'] },
        e: { type: 'object', properties: {} },
        f: { type: ['string', 'integer'] },
        g: {},
        h: { type: 'array' },
      },
    });
    expect(types).toEqual({ a: 'string', b: 'integer', c: 'number', d: 'boolean', e: 'json', f: 'json', g: 'json', h: 'json' });
    expect(columnTypesFromJsonSchema(undefined)).toEqual({});
  });
});
