import { type DestinationConfiguration, requiredString } from './config-fields.ts';
import { fileUnderDataDir } from './data-dir-path.ts';
import type { Destination, StreamWriter, TableSpec, WriteContext, WriteMode } from './destination.ts';
import { recordsJson } from './row-encoding.ts';
import type { SqliteCall } from './sqlite-worker.ts';
import { WorkerCalls } from './worker-calls.ts';

/** An SQLite destination from its configuration (schemas/server/destination-sqlite.json): a file under the data directory. */
export function createSqliteDestination(config: DestinationConfiguration, dataDir: string): Destination {
  const path = requiredString(config, 'sqlite', 'destination_path');
  return new SqliteDestination(fileUnderDataDir(dataDir, path, 'sqlite'), path);
}

/**
 * Writes through a worker thread that holds the file (sqlite-worker.ts): better-sqlite3 is
 * synchronous, and a million rows inserted here would stall the source's reads. This thread only
 * serialises each batch to JSON, which it needs anyway for the byte count.
 */
class SqliteDestination implements Destination {
  readonly type = 'sqlite' as const;
  private readonly thread: WorkerCalls<SqliteCall>;
  private streams = 0;

  constructor(file: string, label: string) {
    this.thread = new WorkerCalls(new URL('./sqlite-worker.ts', import.meta.url), { file, label });
  }

  check(): Promise<void> {
    return this.thread.call({ op: 'check' });
  }

  async openStream(table: TableSpec, mode: WriteMode, context: WriteContext): Promise<StreamWriter> {
    const stream = ++this.streams;
    await this.thread.call({ op: 'open', stream, table, mode, context });
    return {
      write: async (records) => {
        const { json, bytes } = recordsJson(records);
        await this.thread.call({ op: 'write', stream, json });
        return bytes;
      },
      commit: () => this.thread.call({ op: 'commit', stream }),
      abort: () => this.thread.call({ op: 'abort', stream }),
    };
  }

  dropTables(names: string[]): Promise<void> {
    return this.thread.call({ op: 'drop', names });
  }

  close(): Promise<void> {
    return this.thread.close({ op: 'close' });
  }
}
