import { maxUtf8Bytes, withRoom } from './buffer-room.ts';
import { recordJson } from './record-bytes.ts';

/** A batch of records as their JSON texts in UTF-8, one after another, in memory the writer thread reads in place. */
export interface JsonBatch {
  buffer: SharedArrayBuffer;
  /** Where each record's text ends. */
  ends: Uint32Array;
}

/**
 * The heap of a thread that reads these batches (SQLite's writer, PostgreSQL's loader): a batch or
 * two at a time. Its young generation holds a batch's records while they are encoded (with 8 MB, a
 * quarter of the thread's time went to collecting the records it promoted; with 24, a tenth).
 */
export const BATCH_THREAD_HEAP = { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 128 };

/** Enough for a batch of 1,000 records of a kilobyte; a larger batch grows its buffer, which is kept for the next. */
const INITIAL_BYTES = 2 ** 20;

/**
 * How the SQLite destination hands batches to its writer thread, cheaply for the event loop: each
 * record serialized on its own (a small string, young and cheap to collect) and written as UTF-8 into
 * shared memory reused batch after batch, which postMessage passes without a copy. Measured per 1,000
 * Slack users: about 5 ms, against 17 ms to encode rows and post them, and 15 to 25 ms to post one JSON
 * text of the batch (a string of megabytes, allocated and collected in the old generation each time).
 */
export class JsonBatchWriter {
  /** Buffers no write holds: a write takes one and gives it back once the writer thread has read it. */
  private readonly free: Buffer[] = [];

  /**
   * The records written as a batch and handed to `send` (a writer thread's call); resolves to their
   * bytes once sent, the buffer given back then. Not an async function: its suspended frame would hold
   * the records until then, past the young generation's collections.
   */
  send(records: Record<string, unknown>[], send: (batch: JsonBatch) => Promise<unknown>): Promise<number> {
    const { batch, bytes, release } = this.write(records);
    return send(batch)
      .finally(release)
      .then(() => bytes);
  }

  /** The records as a batch, their bytes as the sync counts them (record-bytes.ts), and what gives the buffer back. */
  write(records: Record<string, unknown>[]): { batch: JsonBatch; bytes: number; release: () => void } {
    let buffer = this.free.pop() ?? sharedBuffer(INITIAL_BYTES);
    const ends = new Uint32Array(records.length);
    let at = 0;
    for (let i = 0; i < records.length; i++) {
      const json = recordJson(records[i]!);
      buffer = withRoom(buffer, at, maxUtf8Bytes(json.length), sharedBuffer);
      at += buffer.write(json, at);
      ends[i] = at;
    }
    const held = buffer;
    return { batch: { buffer: held.buffer as SharedArrayBuffer, ends }, bytes: at, release: () => void this.free.push(held) };
  }
}

function sharedBuffer(bytes: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(bytes));
}
