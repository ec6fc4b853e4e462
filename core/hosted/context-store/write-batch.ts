import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { FieldCatalog } from './field-catalog.ts';
import { type DocumentRow, postgresRecordWriter, type SlotCharacters, sqliteRecordWriter } from './record-writers.ts';

/** Where a connector's records go: its id (bookkeeping tables) and its key in context_stores (records). */
export interface StoreOwner {
  connectorId: string;
  storeKey: number;
}

/** One transaction: a batch of one entity's documents, their text rows, and the characters their words add to the alphabets. */
export async function writeBatch(driver: SqlDriver, owner: StoreOwner, catalog: FieldCatalog, rows: DocumentRow[]): Promise<void> {
  const writer = driver.dialect === 'sqlite' ? sqliteRecordWriter : postgresRecordWriter;
  await driver.transaction(async (tx) => {
    const seen: SlotCharacters = new Map();
    await writer(tx, owner.storeKey, catalog, rows, seen);
    await mergeAlphabets(tx, owner.connectorId, catalog.entity, seen);
  });
}

async function mergeAlphabets(tx: SqlDriver, connectorId: string, entity: string, seen: SlotCharacters): Promise<void> {
  if (seen.size === 0) return;
  const known = new Map(
    (
      await tx.all<{ slot: number; chars: string }>('SELECT slot, chars FROM context_alphabets WHERE connector_id = ? AND entity = ?', [connectorId, entity])
    ).map((row) => [Number(row.slot), row.chars]),
  );
  for (const [slot, chars] of seen) {
    const before = known.get(slot) ?? '';
    const merged = [...new Set([...before, ...chars])].sort().join('');
    if (merged === before) continue;
    await tx.run(
      'INSERT INTO context_alphabets (connector_id, entity, slot, chars) VALUES (?, ?, ?, ?) ON CONFLICT (connector_id, entity, slot) DO UPDATE SET chars = excluded.chars',
      [connectorId, entity, slot, merged],
    );
  }
}
