import { WorkerCalls } from '../../worker-calls.ts';
import type { BatchEncoder, EncodedBatch } from './batch-encoder.ts';
import type { TableSpec, WriteContext } from './destination.ts';
import { JsonBatchWriter } from './json-batch.ts';
import type { CopyEncodeCall } from './postgres-encoder-worker.ts';

/** Holds a batch or two at a time (see sqlite-destination.ts's writer thread). */
const ENCODER_HEAP = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 };

/**
 * The PostgreSQL destination's rows, encoded on a thread of their own (postgres-encoder-worker.ts):
 * this thread only serializes each batch into shared memory (json-batch.ts), the encoder thread
 * checks each value against its column and writes the COPY text, and the connection (with its
 * egress checks) stays here. Measured on bench:sync: encoding on the event loop held up the reads.
 */
export class PostgresBatchEncoder implements BatchEncoder {
  private readonly thread = new WorkerCalls<CopyEncodeCall, Uint8Array>(
    new URL('./postgres-encoder-worker.ts', import.meta.url),
    undefined,
    "the PostgreSQL destination's encoder thread",
    ENCODER_HEAP,
  );
  private readonly batches = new JsonBatchWriter();

  async encode(table: TableSpec, context: WriteContext, records: Record<string, unknown>[]): Promise<EncodedBatch> {
    const { batch, bytes, release } = this.batches.write(records);
    try {
      const data = await this.thread.call({ table, context, batch });
      return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), bytes };
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    await this.thread.abandon(new Error('the destination is closed'));
  }
}
