/**
 * The PostgreSQL destination's loader thread (see postgres-batch-loader.ts): each batch read from
 * shared memory, checked and encoded for its table's columns, and inserted by COPY over this
 * thread's own connection (postgres-session.ts's insert: straight in, or upserted through a
 * temporary table once a key was seen again).
 */
import { workerData } from 'node:worker_threads';
import type { InsertTarget } from './batch-loader.ts';
import type { TableSpec, WriteContext } from './destination.ts';
import { type JsonBatch, readJsonBatch } from './json-batch.ts';
import { openClient, type PostgresReach } from './postgres-client.ts';
import { connectPostgres, type PostgresSettings } from './postgres-connection.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { PostgresSession } from './postgres-session.ts';
import { encodeRows } from './row-encoding.ts';
import { SerialQueue } from './serial-queue.ts';
import { serveCalls } from '../../worker-calls.ts';

export interface LoaderSetup {
  settings: PostgresSettings;
  schema: string;
  reach: PostgresReach;
}

export type LoaderCall = { op: 'load'; target: InsertTarget; table: TableSpec; context: WriteContext; batch: JsonBatch } | { op: 'close' };

const { settings, schema, reach } = workerData as LoaderSetup;
const session = new PostgresSession({
  dialect: POSTGRES_DIALECT,
  schema,
  // The thread never drops a table: the destination's own session does.
  dropCascade: false,
  connect: () => connectPostgres(settings, (ssl) => openClient(settings, ssl, reach)),
});
const queue = new SerialQueue();

async function handle(call: LoaderCall): Promise<undefined> {
  if (call.op === 'close') {
    await session.close();
    return;
  }
  const rows = encodeRows(call.table, readJsonBatch(call.batch), call.context, POSTGRES_DIALECT);
  if (rows.length > 0) await session.insert(call.target.qualified, call.target.columns, rows, call.target.conflict);
  return;
}

serveCalls<LoaderCall>((call) => queue.run(() => handle(call)));
