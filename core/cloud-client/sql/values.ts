/**
 * Values read from a destination table back in the types the records had: a column's kind comes
 * from the type the database declares for it, refined by the stream's record schema where the
 * database cannot tell (SQLite keeps booleans as 0/1 INTEGER and JSON as TEXT).
 */

import type { ColumnType } from '../../hosted/sync/destinations/destination.ts';
import { EXTRACTED_AT_COLUMN, META_COLUMN, RAW_ID_COLUMN } from '../../hosted/sync/destinations/table-columns.ts';
import { columnsOf } from '../../hosted/sync/stream-columns.ts';
import type { JsonSchema } from '../../sdk/index.ts';

/** A record field's column type, as the sync writes it (its JSON Schema type: scalars typed, the rest JSON). */
export type SqlColumnType = ColumnType;

/** How a column's values are turned back into JavaScript values. */
export type ValueKind = SqlColumnType | 'timestamp' | 'raw';

/** A table column as the database declares it. */
export interface DeclaredColumn {
  name: string;
  /** The declared type, as the database spells it (`INTEGER`, `double precision`, `JSON`...). */
  type: string;
}

/** The column's kind from its declared type, in any of the three databases' spellings. */
export function kindOfDeclaredType(type: string): ValueKind {
  const t = type.trim().toUpperCase();
  if (/^(BIGINT|INTEGER|INT|INT[248]|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT)$/.test(t)) return 'integer';
  if (/^(REAL|DOUBLE|DOUBLE PRECISION|FLOAT|FLOAT[48]|NUMERIC|DECIMAL)(\(.*\))?$/.test(t)) return 'number';
  if (t === 'BOOLEAN' || t === 'BOOL') return 'boolean';
  if (t === 'JSON' || t === 'JSONB') return 'json';
  if (/^(TEXT|VARCHAR|CHARACTER VARYING|STRING|CHAR|BPCHAR)(\(.*\))?$/.test(t)) return 'string';
  if (/^TIMESTAMP/.test(t) || t === 'TIMESTAMPTZ') return 'timestamp';
  return 'raw';
}

/**
 * Each column's kind: the declared type's, the `_airbyte_*` columns as Airbyte defines them, and a
 * hint from the record schema where the storage is the same for two kinds (a TEXT column holding
 * JSON, an INTEGER column holding 0/1 booleans). A hint never overrides a type the database knows.
 */
export function columnKinds(columns: DeclaredColumn[], hints: Record<string, SqlColumnType> | undefined): Map<string, ValueKind> {
  const kinds = new Map<string, ValueKind>();
  for (const column of columns) {
    let kind = kindOfDeclaredType(column.type);
    if (column.name === META_COLUMN) kind = 'json';
    else if (column.name === EXTRACTED_AT_COLUMN) kind = 'timestamp';
    else if (column.name === RAW_ID_COLUMN) kind = 'string';
    else {
      const hint = hints && Object.hasOwn(hints, column.name) ? hints[column.name] : undefined;
      if (hint === 'json' && kind === 'string') kind = 'json';
      else if (hint === 'boolean' && kind === 'integer') kind = 'boolean';
    }
    kinds.set(column.name, kind);
  }
  return kinds;
}

/** Turns a row of raw driver values into typed values. `jsonAsText`: the driver answers JSON as its text (SQLite, DuckDB), not parsed (pg's jsonb). */
export type RowConverter = (row: Record<string, unknown>) => Record<string, unknown>;

export function rowConverter(kinds: Map<string, ValueKind>, jsonAsText: boolean): RowConverter {
  const converters = new Map<string, (value: unknown) => unknown>();
  for (const [name, kind] of kinds) {
    const convert = valueConverter(kind, jsonAsText);
    if (convert) converters.set(name, convert);
  }
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(row)) {
      const value = row[name];
      const convert = converters.get(name);
      out[name] = value === null || value === undefined ? null : convert ? convert(value) : value;
    }
    return out;
  };
}

function valueConverter(kind: ValueKind, jsonAsText: boolean): ((value: unknown) => unknown) | undefined {
  switch (kind) {
    case 'integer':
    case 'number':
      // pg answers BIGINT as text, DuckDB as a bigint: the sync wrote JavaScript numbers, which read back exactly.
      return (value) => (typeof value === 'bigint' || typeof value === 'string' ? Number(value) : value);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : typeof value === 'number' || typeof value === 'bigint' ? value !== 0 && value !== 0n : value);
    case 'json':
      return jsonAsText ? parseJson : undefined;
    case 'timestamp':
      return (value) => {
        if (typeof value !== 'string') return value;
        const date = new Date(value);
        return Number.isNaN(date.getTime()) ? value : date;
      };
    default:
      return undefined;
  }
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * A record schema's properties as column types, typed as the sync types its columns (columnsOf).
 * Takes the catalog's `jsonSchema` of a stream (the config API's `syncCatalog.streams[].stream.jsonSchema`).
 */
export function columnTypesFromJsonSchema(schema: unknown): Record<string, SqlColumnType> {
  if (!schema || typeof schema !== 'object') return {};
  return Object.fromEntries(columnsOf(schema as JsonSchema).map((column) => [column.name, column.type]));
}
