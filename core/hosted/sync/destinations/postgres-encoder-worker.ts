/**
 * The PostgreSQL destination's encoder thread (see postgres-batch-encoder.ts): a batch's records
 * read from shared memory, checked and encoded for their table's columns, answered as COPY text.
 */
import { CopyTextWriter } from './copy-text.ts';
import type { TableSpec, WriteContext } from './destination.ts';
import { type JsonBatch, readJsonBatch } from './json-batch.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { encodeRows } from './row-encoding.ts';
import { serveCalls } from '../../worker-calls.ts';

export interface CopyEncodeCall {
  table: TableSpec;
  context: WriteContext;
  batch: JsonBatch;
}

const copyText = new CopyTextWriter();

serveCalls<CopyEncodeCall>(async ({ table, context, batch }) => {
  const rows = encodeRows(table, readJsonBatch(batch), context, POSTGRES_DIALECT);
  // A tight copy: posting a view would clone the whole of the writer's buffer, which the next batch reuses.
  return new Uint8Array(copyText.write(rows));
});
