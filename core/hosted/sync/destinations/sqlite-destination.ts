import { type DestinationConfiguration, requiredString } from './config-fields.ts';
import { fileUnderDataDir } from './data-dir-path.ts';
import type { Destination, StreamWriter, TableSpec, WriteContext, WriteMode } from './destination.ts';
import { BATCH_THREAD_HEAP, JsonBatchWriter } from './json-batch.ts';
import type { SqliteCall } from './sqlite-worker.ts';
import { WorkerCalls } from '../../worker-calls.ts';

/** An SQLite destination from its configuration (schemas/server/destination-sqlite.json): a file under the data directory. */
export function createSqliteDestination(config: DestinationConfiguration, dataDir: string): Destination {
  const path = requiredString(config, 'sqlite', 'destination_path');
  return new SqliteDestination(fileUnderDataDir(dataDir, path, 'sqlite'), path);
}

/**
 * Writes through a worker thread that holds the file (sqlite-worker.ts): better-sqlite3 is
 * synchronous, and a million rows inserted here would stall the source's reads. This thread only
 * serializes each batch, as JSON into shared memory (json-batch.ts), and weighs it on the way; the
 * writer thread parses, encodes and inserts it.
 */
class SqliteDestination implements Destination {
  readonly type = 'sqlite' as const;
  private readonly thread: WorkerCalls<SqliteCall>;
  private readonly batches = new JsonBatchWriter();
  private streams = 0;

  constructor(file: string, label: string) {
    this.thread = new WorkerCalls(new URL('./sqlite-worker.ts', import.meta.url), { file, label }, "the SQLite destination's writer thread", BATCH_THREAD_HEAP);
  }

  async check(): Promise<void> {
    await this.thread.call({ op: 'check' });
  }

  async openStream(table: TableSpec, mode: WriteMode, context: WriteContext): Promise<StreamWriter> {
    const stream = ++this.streams;
    await this.thread.call({ op: 'open', stream, table, mode, context });
    return {
      write: (records) => this.batches.send(records, (batch) => this.thread.call({ op: 'write', stream, batch })),
      commit: async () => {
        await this.thread.call({ op: 'commit', stream });
      },
      abort: async () => {
        await this.thread.call({ op: 'abort', stream });
      },
    };
  }

  async dropTables(names: string[]): Promise<void> {
    await this.thread.call({ op: 'drop', names });
  }

  close(): Promise<void> {
    return this.thread.close({ op: 'close' });
  }
}
