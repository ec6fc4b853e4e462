import { Worker } from 'node:worker_threads';
import type { FieldCatalog } from './field-catalog.ts';
import type { DocumentRow } from './record-writers.ts';
import type { WriteReply, WriteRequest } from './sqlite-write-worker.ts';
import type { StoreOwner } from './write-batch.ts';

const WORKER = new URL('./sqlite-write-worker.ts', import.meta.url).href;
/** The worker loads TypeScript as the main thread does: tsx's loader, registered in the worker before its module. */
const BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER)}); });`;

/**
 * Writes an SQLite context store's batches on a thread of their own (started at the first write):
 * the upserts, text indexes and commits of a replication no longer stall the event loop that reads
 * the upstream. Batches are written one at a time, in the order given.
 */
export class SqliteWriteThread {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  write(owner: StoreOwner, catalog: FieldCatalog, rows: DocumentRow[]): Promise<void> {
    const worker = this.started();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      // Held open only while it has work: an idle writer thread never keeps the process alive.
      worker.ref();
      worker.postMessage({ seq, owner, entity: catalog.entity, index: catalog.index, rows } satisfies WriteRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Held open until it has closed its connection, or a caller awaiting close() would see the process end first.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { file: this.file } });
    worker.on('message', (reply: WriteReply) => {
      const waiting = this.pending.get(reply.seq);
      this.pending.delete(reply.seq);
      if (this.pending.size === 0) worker.unref();
      if (reply.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(reply.error));
    });
    // A thread that died fails what it held; the next write starts another.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the context store's writer thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
