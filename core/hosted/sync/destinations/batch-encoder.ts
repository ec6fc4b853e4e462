import type { TableSpec, WriteContext } from './destination.ts';

/** A batch encoded for its table: the rows in the session's load format, and the records' bytes as the sync counts them (record-bytes.ts). */
export interface EncodedBatch {
  data: Buffer;
  bytes: number;
}

/** Turns batches of records into rows off the event loop (postgres-batch-encoder.ts), for SqlSession.insertEncoded. */
export interface BatchEncoder {
  encode(table: TableSpec, context: WriteContext, records: Record<string, unknown>[]): Promise<EncodedBatch>;
  close(): Promise<void>;
}
