import { describe, expect, it } from 'vitest';
import { copyLinesFromJson, rowsFromJson } from '../core/hosted/sync/destinations/json-rows.ts';
import { CopyTextWriter } from '../core/hosted/sync/destinations/copy-text.ts';
import type { ColumnType, TableSpec } from '../core/hosted/sync/destinations/destination.ts';
import { JsonBatchWriter } from '../core/hosted/sync/destinations/json-batch.ts';
import { readJsonBatch } from './helpers/json-batch-records.ts';
import { POSTGRES_DIALECT } from '../core/hosted/sync/destinations/postgres-dialect.ts';
import { encodeRows } from '../core/hosted/sync/destinations/row-encoding.ts';
import { SQLITE_DIALECT } from '../core/hosted/sync/destinations/sqlite-dialect.ts';
import type { SqlDialect } from '../core/hosted/sync/destinations/table-columns.ts';

/** A small seeded generator: the same records on every run, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const STRINGS = [
  '',
  'plain',
  'with "quotes"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'cr\rreturn',
  'nul\0char',
  'lone \ud800 surrogate',
  'é ünïcode',
  '🎉 emoji',
  '\\N',
  '\\.',
  '\u001f',
  'end\\',
];
const NUMBERS = [0, -0, 1, -1, 42, 1.5, -2.25, 1e21, 1e-7, 2 ** 53, 2 ** 63, -(2 ** 63), 123456789.125];

function randomValue(random: () => number, depth = 0): unknown {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const kind = Math.floor(random() * (depth > 1 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return pick(STRINGS);
  if (kind === 2) return pick(NUMBERS);
  if (kind === 3) return random() < 0.5;
  if (kind === 4) return undefined;
  if (kind === 5) return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, i) => [pick(['a', 'b"c', 'd\\e', `k${i}`]), randomValue(random, depth + 1)]));
}

const TYPES: ColumnType[] = ['string', 'integer', 'number', 'boolean', 'json'];
const COLUMN_NAMES = ['id', 'name', 'count', 'score', 'flag', 'body', 'quoted "name"', 'back\\slash', 'tab\tname'];

function randomRecords(random: () => number, table: TableSpec, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, n) => {
    const record: Record<string, unknown> = {};
    for (const column of table.columns) {
      if (random() < 0.15) continue;
      record[column.name] = randomValue(random);
    }
    // Keys that repeat within the batch, and never a missing one.
    for (const column of table.columns.filter((candidate) => table.primaryKey.includes(candidate.name)))
      record[column.name] = column.type === 'string' ? `key-${n % 7}` : Math.floor(random() * 5);
    if (random() < 0.2) record.extra = randomValue(random);
    if (random() < 0.1) record._airbyte_meta = { changes: [{ field: 'name', change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' }, { field: 1 }] };
    if (random() < 0.05) record._airbyte_meta = 'not changes';
    return record;
  });
}

/** The lines encodeRows and copy-text.ts write for the records, with each row's random id blanked out. */
function referenceLines(table: TableSpec, records: Record<string, unknown>[], dialect: SqlDialect): string[] {
  const { batch } = new JsonBatchWriter().write(records);
  const rows = encodeRows(table, readJsonBatch(batch), { syncId: 7 }, dialect);
  return new CopyTextWriter().write(rows).toString('utf8').split('\n').slice(0, -1).map(blankId(table));
}

function scannedLines(table: TableSpec, records: Record<string, unknown>[], dialect: SqlDialect): string[] {
  const { batch } = new JsonBatchWriter().write(records);
  return copyLinesFromJson(table, batch, { syncId: 7 }, dialect).map((line: string) => blankId(table)(line.slice(0, -1)));
}

/** Rows as the SQLite writer binds them, from both ways, each row's random id and extraction time blanked out. */
function bothRows(table: TableSpec, records: Record<string, unknown>[], dialect: SqlDialect) {
  const { batch } = new JsonBatchWriter().write(records);
  const blank = (row: unknown[]) => [...row.slice(0, table.columns.length), 'ID', 'AT', row[table.columns.length + 2]];
  return {
    scanned: rowsFromJson(table, batch, { syncId: 7 }, dialect).map(blank),
    reference: encodeRows(table, readJsonBatch(batch), { syncId: 7 }, dialect).map(blank),
  };
}

/** The extraction time too: the two encodings ran a moment apart. */
const blankId = (table: TableSpec) => (line: string) => {
  const fields = line.split('\t');
  fields[table.columns.length] = 'ID';
  fields[table.columns.length + 1] = 'AT';
  return fields.join('\t');
};

describe('rows and COPY lines straight from the records JSON', () => {
  for (const [label, dialect] of [
    ['PostgreSQL', POSTGRES_DIALECT],
    ['a dialect with integer booleans that holds U+0000', SQLITE_DIALECT],
  ] as const) {
    it(`gives the rows and lines encodeRows gives, for every column type and awkward value (${label})`, () => {
      const random = seeded(20261126);
      for (let round = 0; round < 200; round++) {
        const columns = COLUMN_NAMES.filter(() => random() < 0.7).map((name) => ({ name, type: TYPES[Math.floor(random() * TYPES.length)]! }));
        const keyed = columns.length > 0 && random() < 0.5;
        if (keyed) columns[0]!.type = random() < 0.5 ? 'string' : 'integer';
        const table: TableSpec = { name: 't', columns, primaryKey: keyed ? [columns[0]!.name] : [] };
        const records = randomRecords(random, table, 1 + Math.floor(random() * 30));
        expect(scannedLines(table, records, dialect), `round ${round}`).toEqual(referenceLines(table, records, dialect));
        const { scanned, reference } = bothRows(table, records, dialect);
        expect(scanned, `round ${round}`).toEqual(reference);
      }
    });
  }

  it('keeps the last record of a key seen twice in a batch, in the first one’s place, for a key of two columns', () => {
    const table: TableSpec = {
      name: 't',
      columns: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'integer' },
        { name: 'v', type: 'string' },
      ],
      primaryKey: ['a', 'b'],
    };
    const records = [
      { a: 'x', b: 1, v: 'first' },
      { a: 'y', b: 1, v: 'other' },
      { a: 'x', b: 1, v: 'last' },
    ];
    const lines = scannedLines(table, records, POSTGRES_DIALECT);
    expect(lines.map((line) => line.split('\t')[2])).toEqual(['last', 'other']);
    expect(lines).toEqual(referenceLines(table, records, POSTGRES_DIALECT));
  });

  it('refuses a record without a value for its primary key, as encodeRows does', () => {
    const table: TableSpec = { name: 't', columns: [{ name: 'id', type: 'string' }], primaryKey: ['id'] };
    const { batch } = new JsonBatchWriter().write([{ id: null }]);
    expect(() => copyLinesFromJson(table, batch, { syncId: 1 }, POSTGRES_DIALECT)).toThrow(/no usable value for its primary key "id"/);
  });

  it('notes a value that does not fit its column in the row’s _airbyte_meta, after the mappers’ changes', () => {
    const table: TableSpec = { name: 't', columns: [{ name: 'n', type: 'integer' }], primaryKey: [] };
    const records = [{ n: 'seven', _airbyte_meta: { changes: [{ field: 'x', change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' }] } }];
    const [line] = scannedLines(table, records, POSTGRES_DIALECT);
    const [value, , , meta] = line!.split('\t');
    expect(value).toBe('\\N');
    expect(JSON.parse(meta!)).toEqual({
      changes: [
        { field: 'x', change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' },
        { field: 'n', change: 'NULLED', reason: 'DESTINATION_SERIALIZATION_ERROR' },
      ],
      sync_id: 7,
    });
  });
});
