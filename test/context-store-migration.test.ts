import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import { migrate } from '../core/stores/migrate.ts';
import { PostgresDriver } from '../core/stores/postgres-driver.ts';
import type { SqlDriver } from '../core/stores/sql-driver.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';
import { openTestContextStore } from './helpers/context-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';

/**
 * A store written before migration 002 (records keyed by connector id) keeps its records, text rows
 * and states through the upgrade: same search answers, per connector, and later writes update them.
 */

const MIGRATIONS = new URL('../core/hosted/context-store/migrations/', import.meta.url);
const MESSAGES = [
  { connector: 'connector-a', id: 'C1:1700000000.000001', text: 'deploy the pipeline' },
  { connector: 'connector-a', id: 'C1:1700000000.000002', text: 'review the deploy' },
  { connector: 'connector-b', id: 'C2:1700000000.000001', text: 'deploy again' },
];

let catalog: FieldCatalog;

beforeAll(async () => {
  const runtime = new Runtime();
  for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
  catalog = runtime.plugin('chat').searchCatalogs().get('channel_messages')!;
});

/** The store as migration 001 left it, with the three messages written the way 001's writer did. */
async function storeAtVersion1(driver: SqlDriver): Promise<void> {
  const only001 = mkdtempSync(join(tmpdir(), 'plugboard-migration-'));
  try {
    copyFileSync(new URL(`./${driver.dialect}/001_context_store.sql`, MIGRATIONS), join(only001, '001_context_store.sql'));
    await migrate(driver, { dir: pathToFileURL(`${only001}/`), table: 'context_store_migrations', lock: 7_263_105 });
  } finally {
    rmSync(only001, { recursive: true, force: true });
  }
  await migrate(driver, { dir: new URL('./common/', MIGRATIONS), table: 'context_store_common_migrations', lock: 7_263_105 });
  for (const message of MESSAGES) {
    const [channel, ts] = message.id.split(':');
    const document = JSON.stringify({ ...catalog.documentOf({ channel_id: channel, ts, type: 'message', text: message.text }, message.id) });
    const words = message.text.split(' ');
    if (driver.dialect === 'sqlite') {
      const row = await driver.get<{ rid: number }>(
        "INSERT INTO context_records (connector_id, entity, id, data) VALUES (?, 'channel_messages', ?, jsonb(?)) RETURNING rid",
        [message.connector, message.id, document],
      );
      await driver.run('INSERT INTO context_words (rowid, words) VALUES (?, ?)', [row!.rid * 64, words.join(' ')]);
    } else {
      const row = await driver.get<{ rid: string }>(
        "INSERT INTO context_records (connector_id, entity, id, data) VALUES (?, 'channel_messages', ?, ?::jsonb) RETURNING rid",
        [message.connector, message.id, document],
      );
      await driver.run('INSERT INTO context_text (rid, slot, words) VALUES (?, 0, array_to_tsvector(?::text[]))', [row!.rid, `{${words.join(',')}}`]);
    }
  }
  for (const connector of ['connector-a', 'connector-b']) {
    await driver.run("INSERT INTO context_entities (connector_id, entity, status, records, synced_at) VALUES (?, 'channel_messages', 'ready', 0, ?)", [
      connector,
      new Date().toISOString(),
    ]);
  }
}

describe.each(BACKENDS)('context store migration 002 (store keys) on %s', (backend) => {
  let database: TestDatabase;

  afterEach(async () => {
    await database?.drop();
  });

  it('keeps every record, its text rows and its connector; writes after it update in place', async () => {
    database = await createTestDatabase(backend);
    const file = join(database.dataDir, 'context.db');
    const old: SqlDriver =
      backend === 'postgres' ? PostgresDriver.connect(database.databaseUrl!, database.schema!) : new SqliteDriver(database.dataDir, file, { bulk: true });
    await storeAtVersion1(old);
    await old.close();

    const store = await openTestContextStore(database);
    try {
      await store.prepare(catalog);
      const ids = async (connector: string, text: string) =>
        (await store.search(connector, catalog, planSearch(catalog, { query: { filter: { keyword: { text } } } }))).hits.map((hit) => hit.id);
      expect(await ids('connector-a', 'deploy')).toEqual(['C1:1700000000.000001', 'C1:1700000000.000002']);
      expect(await ids('connector-a', 'pipeline')).toEqual(['C1:1700000000.000001']);
      expect(await ids('connector-b', 'deploy')).toEqual(['C2:1700000000.000001']);

      await store.write('connector-a', catalog, [{ channel_id: 'C1', ts: '1700000000.000002', type: 'message', text: 'review the rollback' }]);
      expect(await ids('connector-a', 'deploy')).toEqual(['C1:1700000000.000001']);
      expect(await ids('connector-a', 'rollback')).toEqual(['C1:1700000000.000002']);
      await store.setEntityState('connector-a', 'channel_messages', 'ready', new Date());
      expect((await store.entityStates('connector-a')).channel_messages?.records).toBe(2);

      await store.deleteConnector('connector-a');
      expect(await ids('connector-b', 'deploy')).toEqual(['C2:1700000000.000001']);
      const left = await store.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM context_records');
      expect(Number(left?.n)).toBe(1);
    } finally {
      await store.close();
    }
  });
});
