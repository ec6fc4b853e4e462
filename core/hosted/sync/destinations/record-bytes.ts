/**
 * What the sync counts as a batch's bytes (`bytesSynced`), the same on every destination and as
 * Airbyte counts them: each record as JSON, in UTF-8 — the sum of
 * `Buffer.byteLength(JSON.stringify(record))` over the records handed to the destination (a key
 * written twice in a batch counts twice, as it counts twice in `rowsSynced`). A bigint, which JSON
 * has no way to write, counts as its digits in quotes.
 */

/** A record's JSON text (recordBytes weighs it; the SQLite destination hands it to its writer thread). */
export function recordJson(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    // Only a bigint (a manifest's Python int past 2^53) makes JSON.stringify throw on a record read from JSON; the replacer costs too much to run always.
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  }
}

/**
 * Record by record: one JSON text of the whole batch would be megabytes, a string allocated in the
 * old generation each batch, whose collections cost the event loop more than the serializing itself.
 */
export function recordBytes(records: Record<string, unknown>[]): number {
  let bytes = 0;
  for (const record of records) bytes += Buffer.byteLength(recordJson(record));
  return bytes;
}
