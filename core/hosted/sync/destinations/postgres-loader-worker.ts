/**
 * The PostgreSQL destination's loader thread (see postgres-batch-loader.ts): each batch read from
 * shared memory, checked and encoded for its table's columns straight from its JSON (json-rows.ts),
 * and inserted by COPY over this thread's own connection (postgres-session.ts's insert: straight in,
 * or upserted through a temporary table once a key was seen again).
 */
import { workerData } from 'node:worker_threads';
import type { InsertTarget } from './batch-loader.ts';
import type { TableSpec, WriteContext } from './destination.ts';
import { copyLinesFromJson } from './json-rows.ts';
import type { JsonBatch } from './json-batch.ts';
import { openClient, type PostgresReach } from './postgres-client.ts';
import { connectPostgres, type PostgresSettings } from './postgres-connection.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { PostgresSession } from './postgres-session.ts';
import { CopyTextWriter } from './copy-text.ts';
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
const copyText = new CopyTextWriter();

/**
 * Each batch is encoded as its call arrives, and queued to be sent: the thread encodes the next
 * batch while the server takes the one before (sending and waiting for COPY's answer one batch at a
 * time left both idle half the time).
 */
function handle(call: LoaderCall): Promise<void> {
  if (call.op === 'close') return queue.run(() => session.close());
  const { target, table, context, batch } = call;
  const lines = copyLinesFromJson(table, batch, context, POSTGRES_DIALECT);
  if (lines.length === 0) return Promise.resolve();
  // Its own copy: the writer's buffer serves the next batch while this one waits its turn.
  const data = Buffer.from(copyText.writeLines(lines));
  return queue.run(() => session.insertCopyText(target.qualified, target.columns, data, target.conflict));
}

serveCalls<LoaderCall>(handle);
