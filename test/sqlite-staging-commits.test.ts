import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it, vi } from 'vitest';
import type { TableSpec } from '../core/hosted/sync/destinations/destination.ts';
import type { SqlSession } from '../core/hosted/sync/destinations/sql-session.ts';
import { SqliteSession } from '../core/hosted/sync/destinations/sqlite-session.ts';
import { SQLITE_DIALECT } from '../core/hosted/sync/destinations/sqlite-dialect.ts';
import { sqlColumns } from '../core/hosted/sync/destinations/table-columns.ts';
import { TableLoad } from '../core/hosted/sync/destinations/table-load.ts';

/** A staging table's batches commit together on SQLite: never lost, never holding the file's write lock for long. */

const dir = mkdtempSync(join(tmpdir(), 'plugboard-staging-commits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const table: TableSpec = { name: 'items', columns: [{ name: 'id', type: 'string' }], primaryKey: ['id'] };
const columns = sqlColumns(table, SQLITE_DIALECT);
const row = (id: string | null) => [id, `raw-${id}`, '2026-01-01T00:00:00.000Z', '{}'];

async function stagedSession(file: string): Promise<SqliteSession> {
  const session = new SqliteSession(file, 'items.sqlite');
  await session.transaction([
    'CREATE TABLE "staging" ("id" TEXT PRIMARY KEY, "_airbyte_raw_id" TEXT NOT NULL, "_airbyte_extracted_at" TEXT, "_airbyte_meta" TEXT)',
  ]);
  return session;
}

/** Waits until another connection to the file sees `count` rows in the staging table. */
async function seenElsewhere(file: string, count: number): Promise<void> {
  const other = new Database(file, { readonly: true });
  try {
    for (let waited = 0; ; waited += 20) {
      const { n } = other.prepare('SELECT count(*) AS n FROM "staging"').get() as { n: number };
      if (n === count || waited > 10_000) return expect(n).toBe(count);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    other.close();
  }
}

it('commits held staging rows once no batch follows, so another writer gets the file', async () => {
  const file = join(dir, 'idle.sqlite');
  const session = await stagedSession(file);
  try {
    await session.insert('"staging"', columns, [row('a'), row('b')], '', true);
    await seenElsewhere(file, 2);
    // The write lock is free again: another connection writes without waiting.
    const other = new Database(file, { timeout: 0 });
    other.exec('CREATE TABLE elsewhere (x)');
    other.close();
  } finally {
    await session.close();
  }
});

it('commits held staging rows before any other operation, and at close', async () => {
  const file = join(dir, 'ordered.sqlite');
  const session = await stagedSession(file);
  await session.insert('"staging"', columns, [row('a')], '', true);
  expect(await session.columnsOf('staging')).toEqual(['id', '_airbyte_raw_id', '_airbyte_extracted_at', '_airbyte_meta']);
  await seenElsewhere(file, 1);
  await session.insert('"staging"', columns, [row('b')], '', true);
  await session.close();
  await seenElsewhere(file, 2);
});

it('a failed staging batch undoes the rows held with it, and the session goes on', async () => {
  const file = join(dir, 'failed.sqlite');
  const session = await stagedSession(file);
  try {
    await session.insert('"staging"', columns, [row('a')], '', true);
    // No raw id: the NOT NULL column refuses the batch.
    await expect(session.insert('"staging"', columns, [[...row('b').slice(0, 1), null, ...row('b').slice(2)]], '', true)).rejects.toThrow(/NOT NULL/);
    await seenElsewhere(file, 0);
    await session.insert('"staging"', columns, [row('c')], '');
    await seenElsewhere(file, 1);
  } finally {
    await session.close();
  }
});

it('held rows that fail to commit fail their load: its next insert and its swap refuse', async () => {
  const file = join(dir, 'commit-failed.sqlite');
  const session = await stagedSession(file);
  try {
    await session.insert('"staging"', columns, [row('a')], '', true);
    // The disk fails at the commit (reached through the session's own connection).
    const db = (session as unknown as { db: Database.Database }).db;
    const exec = db.exec.bind(db);
    const failing = vi.spyOn(db, 'exec').mockImplementation((sql: string) => {
      if (sql === 'COMMIT') throw new Error('disk I/O error');
      return exec(sql);
    });
    await expect(session.columnsOf('staging')).rejects.toThrow(/disk I\/O error/);
    failing.mockRestore();
    await expect(session.insert('"staging"', columns, [row('b')], '', true)).rejects.toThrow(/disk I\/O error/);
    await seenElsewhere(file, 0);
  } finally {
    await session.close();
  }
});

it('a load one of whose writes failed is never swapped in', async () => {
  const failing: SqlSession = {
    dialect: SQLITE_DIALECT,
    dropCascade: false,
    qualified: (name) => `"${name}"`,
    columnsOf: async () => null,
    transaction: async () => undefined,
    swap: async () => expect.unreachable('a failed load was swapped in'),
    insert: async () => {
      throw new Error('disk I/O error');
    },
    close: async () => undefined,
  };
  const load = await TableLoad.open(failing, table, 'overwrite', { syncId: 1 });
  await expect(load.write([{ id: 'a' }])).rejects.toThrow(/disk I\/O error/);
  await expect(load.commit()).rejects.toThrow(/cannot commit table "items": a write failed \(disk I\/O error\)/);
});
