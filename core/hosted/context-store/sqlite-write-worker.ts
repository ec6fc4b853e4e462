/**
 * The SQLite context store's writer thread (see sqlite-write-thread.ts): its own connection to the
 * store's file, writing each batch it is sent in one transaction, so replication's SQLite work runs
 * beside the main thread's upstream calls instead of between them.
 */
import { dirname } from 'node:path';
import { workerData } from 'node:worker_threads';
import type { SearchIndex } from '../../sdk/index.ts';
import { SqliteDriver } from '../../stores/sqlite-driver.ts';
import { FieldCatalog } from './field-catalog.ts';
import type { DocumentRow } from './record-writers.ts';
import { type StoreOwner, writeBatch } from './write-batch.ts';
import { serveCalls } from '../worker-calls.ts';

/** What the main thread asks: a batch of one entity's rows, or to close the connection (the last call). */
export type WriteCall = { op: 'write'; owner: StoreOwner; entity: string; index: SearchIndex; rows: DocumentRow[] } | { op: 'close' };

const file = (workerData as { file: string }).file;
const driver = new SqliteDriver(dirname(file), file, { bulk: true });
const catalogs = new Map<string, FieldCatalog>();

/** Catalogs are rebuilt here from their declaration, once per entity and declaration. */
function catalogOf(entity: string, index: SearchIndex): FieldCatalog {
  const key = `${entity}\0${JSON.stringify(index)}`;
  const catalog = catalogs.get(key) ?? new FieldCatalog(entity, index);
  catalogs.set(key, catalog);
  return catalog;
}

serveCalls<WriteCall>(async (call) => {
  if (call.op === 'close') await driver.close();
  else await writeBatch(driver, call.owner, catalogOf(call.entity, call.index), call.rows);
});
