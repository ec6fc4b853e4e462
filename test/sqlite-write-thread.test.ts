import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import { SqliteWriteThread } from '../core/hosted/context-store/sqlite-write-thread.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';

/** The SQLite context store's writer thread: a batch it cannot write fails its caller, and the thread goes on serving. */

const dir = mkdtempSync(join(tmpdir(), 'plugboard-write-thread-'));
let catalog: FieldCatalog;

beforeAll(async () => {
  const runtime = new Runtime();
  for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
  catalog = runtime.plugin('chat').searchCatalogs().get('users')!;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("rejects a batch the database refuses with the database's message, then writes the next one", async () => {
  const file = join(dir, 'context.db');
  // A file without the context store's tables yet.
  const driver = new SqliteDriver(dir, file);
  const thread = new SqliteWriteThread(file);
  try {
    const owner = { connectorId: 'connector-a', storeKey: 1 };
    const rows = [{ id: 'U1', document: catalog.documentOf({ id: 'U1', name: 'ada' }, 'U1') }];
    await expect(thread.write(owner, catalog, rows)).rejects.toThrow(/no such table: context_records/);
    await driver.exec(`CREATE TABLE context_records (rid INTEGER PRIMARY KEY, store_key INTEGER NOT NULL, entity TEXT NOT NULL, id TEXT NOT NULL, data BLOB NOT NULL);
      CREATE UNIQUE INDEX context_records_id ON context_records (store_key, entity, id);
      CREATE VIRTUAL TABLE context_words USING fts5 (words, content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE context_trigrams USING fts5 (value, content = '', contentless_delete = 1, tokenize = 'trigram');
      CREATE TABLE context_alphabets (connector_id TEXT, entity TEXT, slot INTEGER, chars TEXT, PRIMARY KEY (connector_id, entity, slot));`);
    await thread.write(owner, catalog, rows);
    const stored = await driver.get<{ id: string; name: string }>("SELECT id, data ->> '$.name' AS name FROM context_records");
    expect(stored).toEqual({ id: 'U1', name: 'ada' });
  } finally {
    await thread.close();
    await driver.close();
  }
});

it('close() resolves in a process that nothing else keeps alive (a script awaiting it sees it finish)', () => {
  const script = join(dir, 'close-then-exit.mts');
  const at = (path: string) => JSON.stringify(resolve(path));
  writeFileSync(
    script,
    `import { BUILTIN_CONNECTORS } from ${at('connectors/builtin.ts')};
import { createContextStore } from ${at('core/hosted/context-store/create-context-store.ts')};
import { Runtime } from ${at('core/runtime/runtime.ts')};
const runtime = new Runtime();
for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
const users = runtime.plugin('chat').searchCatalogs().get('users')!;
const store = await createContextStore({ dataDir: ${JSON.stringify(dir)}, file: ${JSON.stringify(join(dir, 'closing.db'))} });
await store.prepare(users);
await store.write('connector-a', users, [{ id: 'U1', name: 'ada' }]);
await store.close();
console.log('closed');`,
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).not.toMatch(/unsettled top-level await/);
  expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'closed' });
});
