import type { BatchEncoder } from './batch-encoder.ts';
import type { Destination, DestinationType, StreamWriter, TableSpec, WriteContext, WriteMode } from './destination.ts';
import { recordBytes } from './record-bytes.ts';
import { SerialQueue } from './serial-queue.ts';
import type { SqlSession } from './sql-session.ts';
import { dropTables, probeSession, TableLoad } from './table-load.ts';

/**
 * A destination whose database works off the event loop by itself (PostgreSQL over the network,
 * DuckDB on its own threads), so its session is driven from this thread, one operation at a time.
 */
export class SessionDestination implements Destination {
  private readonly queue = new SerialQueue();

  constructor(
    readonly type: DestinationType,
    private readonly session: SqlSession,
    /** Encodes batches off the event loop, into what the session's insertEncoded takes. */
    private readonly encoder?: BatchEncoder,
  ) {}

  check(): Promise<void> {
    return this.queue.run(() => probeSession(this.session));
  }

  async openStream(table: TableSpec, mode: WriteMode, context: WriteContext): Promise<StreamWriter> {
    const load = await this.queue.run(() => TableLoad.open(this.session, table, mode, context));
    const encoder = this.encoder;
    return {
      write: encoder
        ? async (records) => {
            // Encoded before its turn in the queue: the previous batch's insert may still be running.
            const { data, bytes } = await encoder.encode(table, context, records);
            await this.queue.run(() => load.writeEncoded(data));
            return bytes;
          }
        : (records) =>
            this.queue.run(async () => {
              await load.write(records);
              return recordBytes(records);
            }),
      commit: () => this.queue.run(() => load.commit()),
      abort: () => this.queue.run(() => load.abort()),
    };
  }

  dropTables(names: string[]): Promise<void> {
    return this.queue.run(() => dropTables(this.session, names));
  }

  async close(): Promise<void> {
    await this.queue.run(() => this.session.close());
    await this.encoder?.close();
  }
}
