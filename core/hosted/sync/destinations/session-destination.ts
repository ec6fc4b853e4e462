import type { BatchLoader } from './batch-loader.ts';
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
    /** Encodes and inserts batches off the event loop (PostgreSQL); without it the session inserts them. */
    private readonly loader?: BatchLoader,
  ) {}

  check(): Promise<void> {
    return this.queue.run(() => probeSession(this.session));
  }

  async openStream(table: TableSpec, mode: WriteMode, context: WriteContext): Promise<StreamWriter> {
    const load = await this.queue.run(() => TableLoad.open(this.session, table, mode, context));
    const loader = this.loader;
    return {
      write: loader
        ? (records) => loader.load(load.insertTarget(), table, context, records)
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
    await this.loader?.close();
  }
}
