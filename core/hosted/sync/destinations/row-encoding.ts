import { randomUUID } from 'node:crypto';
import { carriedChanges, type MapperChange } from '../mappers/record-changes.ts';
import type { ColumnType, TableSpec, WriteContext } from './destination.ts';
import type { SqlDialect } from './table-columns.ts';

/** A value as the drivers bind it; JSON columns are bound as their JSON text. */
export type SqlValue = string | number | boolean | null;

/** One row of `_airbyte_meta.changes`, as Airbyte destinations (v2) record a value they could not write. */
interface MetaChange {
  field: string;
  change: 'NULLED';
  reason: 'DESTINATION_SERIALIZATION_ERROR';
}

const DOES_NOT_FIT = Symbol('does not fit');
type Encoder = (value: unknown) => SqlValue | typeof DOES_NOT_FIT;

export const INT64_LIMIT = 2 ** 63;
/** An escape JSON.stringify writes for U+0000 (an escaped backslash followed by `u0000` is text, not one). */
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;
/** An escape JSON.stringify writes for a lone UTF-16 surrogate: not JSON that PostgreSQL or DuckDB take. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

/** Whether JSON text (as JSON.stringify writes it) can go in the dialect's JSON column: no lone surrogate, and no U+0000 where text cannot hold one. */
export function jsonFits(encoded: string, dialect: SqlDialect): boolean {
  // Most JSON has no \u escape at all: the regular expressions run only on what has one.
  if (!encoded.includes('\\u')) return true;
  return !(LONE_SURROGATE_ESCAPE.test(encoded) || (!dialect.textAllowsNul && NUL_ESCAPE.test(encoded)));
}

/**
 * Rows for the table's columns (see sqlColumns), from the records: each value checked against its
 * column type, one that does not fit written as NULL and noted in the row's `_airbyte_meta`. With a
 * primary key, a key seen twice in the batch keeps its last record: an upsert statement may touch a
 * row only once.
 */
export function encodeRows(table: TableSpec, records: Iterable<Record<string, unknown>>, context: WriteContext, dialect: SqlDialect): SqlValue[][] {
  const encoders = table.columns.map((column) => encoderFor(column.type, dialect));
  const names = table.columns.map((column) => column.name);
  const rows = new BatchRows<SqlValue[]>(table, context, (values, tail) => {
    values.push(...tail);
    return values;
  });
  for (const record of records) {
    const values: SqlValue[] = new Array(names.length);
    let nulled: string[] | undefined;
    for (let i = 0; i < names.length; i++) {
      const value = record[names[i]!];
      const encoded = value === undefined || value === null ? null : encoders[i]!(value);
      if (encoded === DOES_NOT_FIT) {
        nulled ??= [];
        nulled.push(names[i]!);
      }
      values[i] = encoded === DOES_NOT_FIT ? null : encoded;
    }
    rows.add(values, carriedChanges(record), nulled);
  }
  return rows.rows;
}

/**
 * A batch's rows as they are encoded (encodeRows, json-rows.ts): each row built from its column values
 * and the three values Airbyte's destinations add (its id, the extraction time, its `_airbyte_meta`);
 * with a primary key, a key seen twice keeps its last row, in the first one's place.
 */
export class BatchRows<Row> {
  readonly rows: Row[] = [];
  private readonly keyIndexes: number[];
  private readonly byKey = new Map<unknown, number>();
  private readonly extractedAt = new Date().toISOString();
  private readonly cleanMeta: string;

  constructor(
    private readonly table: TableSpec,
    private readonly context: WriteContext,
    /** The row from its column values (the caller's to keep or reuse) and its added values. */
    private readonly build: (values: SqlValue[], added: [id: string, extractedAt: string, meta: string]) => Row,
  ) {
    this.keyIndexes = table.primaryKey.map((key) => table.columns.findIndex((column) => column.name === key));
    this.cleanMeta = JSON.stringify({ changes: [], sync_id: context.syncId });
  }

  /** Adds a row; `carried` are the mappers' changes, `nulled` the fields that did not fit their column. */
  add(values: SqlValue[], carried: MapperChange[] | undefined, nulled: string[] | undefined): void {
    // The mappers' changes first: they happened before the destination saw the record.
    const changes: Array<MetaChange | MapperChange> | undefined = nulled
      ? [...(carried ?? []), ...nulled.map((field): MetaChange => ({ field, change: 'NULLED', reason: 'DESTINATION_SERIALIZATION_ERROR' }))]
      : carried;
    const meta = changes ? JSON.stringify({ changes, sync_id: this.context.syncId }) : this.cleanMeta;
    // The key before building: a builder may reuse the values.
    const key = this.keyIndexes.length === 0 ? undefined : primaryKeyOf(values, this.keyIndexes, this.table);
    const row = this.build(values, [randomUUID(), this.extractedAt, meta]);
    if (key === undefined) {
      this.rows.push(row);
      return;
    }
    const earlier = this.byKey.get(key);
    if (earlier === undefined) this.byKey.set(key, this.rows.push(row) - 1);
    else this.rows[earlier] = row;
  }
}

/** The key's values as one Map key (the value itself for a one-column key, the common case). */
function primaryKeyOf(row: SqlValue[], keyIndexes: number[], table: TableSpec): unknown {
  if (keyIndexes.length === 1) return keyValue(row[keyIndexes[0]!], 0, table);
  // Length-prefixed, so no two keys join alike whatever their values hold.
  let key = '';
  for (let i = 0; i < keyIndexes.length; i++) {
    const value = String(keyValue(row[keyIndexes[i]!], i, table));
    key += `${value.length}:${value}`;
  }
  return key;
}

/** A key column's value; without one a row cannot be upserted, nor told from another: better stopped than lost or doubled. */
function keyValue(value: SqlValue | undefined, index: number, table: TableSpec): SqlValue {
  if (value !== null && value !== undefined) return value;
  throw new Error(
    `cannot write table ${JSON.stringify(table.name)}: a record has no usable value for its primary key ${JSON.stringify(table.primaryKey[index])}`,
  );
}

/** Whether text can go in the dialect's text column (a lone surrogate becomes U+FFFD on the way). */
export function textFits(value: string, dialect: SqlDialect): boolean {
  return dialect.textAllowsNul || !value.includes('\0');
}

function encoderFor(type: ColumnType, dialect: SqlDialect): Encoder {
  // A lone surrogate becomes U+FFFD, as it would on its way to any UTF-8 database.
  const text = (value: string) => (textFits(value, dialect) ? value.toWellFormed() : DOES_NOT_FIT);
  const json = (value: unknown) => {
    const encoded = JSON.stringify(value);
    return jsonFits(encoded, dialect) ? encoded : DOES_NOT_FIT;
  };
  switch (type) {
    // As Airbyte's typing does: a scalar of another type as its text, an object or array as its JSON.
    case 'string':
      return (value) => text(typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
    case 'integer':
      return (value) => (typeof value === 'number' && Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT ? value : DOES_NOT_FIT);
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : DOES_NOT_FIT);
    case 'boolean':
      return (value) => (typeof value !== 'boolean' ? DOES_NOT_FIT : dialect.booleans === 'integer' ? Number(value) : value);
    case 'json':
      return json;
  }
}
