/**
 * The SQLite context store's writer thread (see sqlite-write-thread.ts): its own connection to the
 * store's file, writing each batch it is sent in one transaction, so replication's SQLite work runs
 * beside the main thread's upstream calls instead of between them.
 */
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchIndex } from '../../sdk/index.ts';
import { SqliteDriver } from '../../stores/sqlite-driver.ts';
import { FieldCatalog } from './field-catalog.ts';
import type { DocumentRow } from './record-writers.ts';
import { type StoreOwner, writeBatch } from './write-batch.ts';

export interface WriteRequest {
  seq: number;
  owner: StoreOwner;
  entity: string;
  index: SearchIndex;
  rows: DocumentRow[];
}

export type WriteReply = { seq: number; error?: undefined } | { seq: number; error: string };

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

parentPort!.on('message', (request: WriteRequest | 'close') => {
  if (request === 'close') {
    void driver.close().finally(() => parentPort!.close());
    return;
  }
  writeBatch(driver, request.owner, catalogOf(request.entity, request.index), request.rows).then(
    () => parentPort!.postMessage({ seq: request.seq } satisfies WriteReply),
    (error: unknown) => parentPort!.postMessage({ seq: request.seq, error: error instanceof Error ? error.message : String(error) } satisfies WriteReply),
  );
});
