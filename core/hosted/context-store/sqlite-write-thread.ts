import { WorkerCalls } from '../worker-calls.ts';
import type { FieldCatalog } from './field-catalog.ts';
import type { DocumentRow } from './record-writers.ts';
import type { WriteCall } from './sqlite-write-worker.ts';
import type { StoreOwner } from './write-batch.ts';

/**
 * Writes an SQLite context store's batches on a thread of their own (started at the first write):
 * the upserts, text indexes and commits of a replication no longer stall the event loop that reads
 * the upstream. Batches are written one at a time, in the order given.
 */
export class SqliteWriteThread {
  private readonly calls: WorkerCalls<WriteCall>;

  constructor(file: string) {
    this.calls = new WorkerCalls(new URL('./sqlite-write-worker.ts', import.meta.url), { file }, "the context store's writer thread");
  }

  async write(owner: StoreOwner, catalog: FieldCatalog, rows: DocumentRow[]): Promise<void> {
    await this.calls.call({ op: 'write', owner, entity: catalog.entity, index: catalog.index, rows });
  }

  /** Closes the thread's connection, then the thread; a caller awaiting it sees the process go on. */
  close(): Promise<void> {
    return this.calls.close({ op: 'close' });
  }
}
