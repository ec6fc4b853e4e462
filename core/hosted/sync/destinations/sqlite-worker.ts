/**
 * The SQLite destination's thread (see sqlite-destination.ts): its own connection to the file, so
 * the synchronous inserts and swaps of a sync run beside the event loop that reads the source.
 */
import { workerData } from 'node:worker_threads';
import type { TableSpec, WriteContext, WriteMode } from './destination.ts';
import type { JsonBatch } from './json-batch.ts';
import { SerialQueue } from './serial-queue.ts';
import { SqliteSession } from './sqlite-session.ts';
import { dropTables, probeSession, TableLoad } from './table-load.ts';
import { serveCalls } from '../../worker-calls.ts';

/** The Destination's operations, a stream named by a number the main thread chose. */
export type SqliteCall =
  | { op: 'check' }
  | { op: 'open'; stream: number; table: TableSpec; mode: WriteMode; context: WriteContext }
  | { op: 'write'; stream: number; batch: JsonBatch }
  | { op: 'commit' | 'abort'; stream: number }
  | { op: 'drop'; names: string[] }
  | { op: 'close' };

const { file, label } = workerData as { file: string; label: string };
const session = new SqliteSession(file, label);
const loads = new Map<number, TableLoad>();
const queue = new SerialQueue();

function loadOf(stream: number): TableLoad {
  const load = loads.get(stream);
  if (!load) throw new Error(`no open stream ${stream}`);
  return load;
}

async function handle(call: SqliteCall): Promise<number | undefined> {
  switch (call.op) {
    case 'check':
      await probeSession(session);
      return;
    case 'open':
      loads.set(call.stream, await TableLoad.open(session, call.table, call.mode, call.context));
      return;
    case 'write':
      // Read and encoded here, off the main thread (sqlite-destination.ts).
      await loadOf(call.stream).writeJson(call.batch);
      return;
    case 'commit':
      await loadOf(call.stream).commit();
      loads.delete(call.stream);
      return;
    // After a commit (or a failed open) there is nothing left to abort.
    case 'abort':
      await loads.get(call.stream)?.abort();
      loads.delete(call.stream);
      return;
    case 'drop':
      await dropTables(session, call.names);
      return;
    case 'close':
      await session.close();
      return;
  }
}

serveCalls<SqliteCall>((call) => queue.run(() => handle(call)));
