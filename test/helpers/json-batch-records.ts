import type { JsonBatch } from '../../core/hosted/sync/destinations/json-batch.ts';

/** A batch's records parsed back, one by one: what json-rows.ts is held equal to, through encodeRows. */
export function readJsonBatch(batch: JsonBatch): Record<string, unknown>[] {
  const bytes = Buffer.from(batch.buffer);
  let start = 0;
  return Array.from(batch.ends, (end) => {
    const record = JSON.parse(bytes.toString('utf8', start, end)) as Record<string, unknown>;
    start = end;
    return record;
  });
}
