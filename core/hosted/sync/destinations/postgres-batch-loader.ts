import { WorkerCalls } from '../../worker-calls.ts';
import type { BatchLoader, InsertTarget } from './batch-loader.ts';
import type { TableSpec, WriteContext } from './destination.ts';
import { BATCH_THREAD_HEAP, JsonBatchWriter } from './json-batch.ts';
import type { PostgresReach } from './postgres-client.ts';
import type { PostgresSettings } from './postgres-connection.ts';
import type { LoaderCall, LoaderSetup } from './postgres-loader-worker.ts';

/**
 * The PostgreSQL destination's rows, encoded and sent on a thread of their own
 * (postgres-loader-worker.ts), over its own connection: this thread only serializes each batch into
 * shared memory (json-batch.ts). Measured on bench:sync: encoding the rows, and sending the COPY
 * data, on the event loop held up the reads. The connection goes where the egress policy allowed
 * (`reach`, judged here once, before the thread starts), and never to the server's own database.
 */
export class PostgresBatchLoader implements BatchLoader {
  private thread: Promise<WorkerCalls<LoaderCall>> | undefined;
  private readonly batches = new JsonBatchWriter();

  constructor(
    private readonly settings: PostgresSettings,
    private readonly schema: string,
    private readonly reach: () => Promise<PostgresReach>,
  ) {}

  load(target: InsertTarget, table: TableSpec, context: WriteContext, records: Record<string, unknown>[]): Promise<number> {
    // Serialized now, before any wait: the records die young, and batches reach the thread in the order given.
    return this.batches.send(records, async (batch) => (await this.started()).call({ op: 'load', target, table, context, batch }));
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    const started = await thread?.catch(() => undefined);
    await started?.close({ op: 'close' });
  }

  private started(): Promise<WorkerCalls<LoaderCall>> {
    this.thread ??= this.reach().then(
      (reach) =>
        new WorkerCalls<LoaderCall>(
          new URL('./postgres-loader-worker.ts', import.meta.url),
          { settings: this.settings, schema: this.schema, reach } satisfies LoaderSetup,
          "the PostgreSQL destination's loader thread",
          BATCH_THREAD_HEAP,
        ),
    );
    // A refused reach (the egress policy) is answered to this write and judged again at the next.
    this.thread.catch(() => {
      this.thread = undefined;
    });
    return this.thread;
  }
}
