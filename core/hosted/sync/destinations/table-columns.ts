import { createHash } from 'node:crypto';
import type { ColumnType, TableSpec } from './destination.ts';

/** The columns Airbyte destinations (v2) add to every typed table, after the record's own. */
export const RAW_ID_COLUMN = '_airbyte_raw_id';
export const EXTRACTED_AT_COLUMN = '_airbyte_extracted_at';
export const META_COLUMN = '_airbyte_meta';
const AIRBYTE_COLUMNS = [RAW_ID_COLUMN, EXTRACTED_AT_COLUMN, META_COLUMN];

/** How one database spells each column's type. */
export type ColumnSqlTypes = Record<ColumnType | 'rawId' | 'extractedAt' | 'meta', string>;

/** What the shared table code must know of a database's SQL. */
export interface SqlDialect {
  types: ColumnSqlTypes;
  /** PostgreSQL truncates longer identifiers silently, which could merge two names. */
  maxIdentifierBytes: number;
  /** SQLite and DuckDB compare column names without case, so `Id` and `id` are one column there. */
  foldsIdentifierCase: boolean;
  /** SQLite has no boolean: 1 and 0. */
  booleans: 'integer' | 'boolean';
  /** PostgreSQL's text and jsonb cannot hold U+0000. */
  textAllowsNul: boolean;
}

export interface SqlColumn {
  name: string;
  sqlType: string;
  notNull: boolean;
}

const STAGING_SUFFIX = '_airbyte_tmp';

/** An identifier in double quotes, embedded quotes doubled: any name is safe in SQL this way. */
export function quoteIdentifier(name: string): string {
  if (name === '' || name.includes('\0')) throw new Error(`invalid SQL identifier ${JSON.stringify(name)}: empty or containing U+0000`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** The table's columns in insert order: the record's fields, then the `_airbyte_*` ones. */
export function sqlColumns(table: TableSpec, dialect: SqlDialect): SqlColumn[] {
  return [
    ...table.columns.map((column) => ({ name: column.name, sqlType: dialect.types[column.type], notNull: false })),
    { name: RAW_ID_COLUMN, sqlType: dialect.types.rawId, notNull: true },
    { name: EXTRACTED_AT_COLUMN, sqlType: dialect.types.extractedAt, notNull: true },
    { name: META_COLUMN, sqlType: dialect.types.meta, notNull: true },
  ];
}

/** Refuses a table the database would silently get wrong: clashing, overlong or unknown names. */
export function checkTableSpec(table: TableSpec, dialect: SqlDialect): void {
  const problem = tableSpecProblem(table, dialect);
  if (problem) throw new Error(`cannot write table ${JSON.stringify(table.name)}: ${problem}`);
}

function tableSpecProblem(table: TableSpec, dialect: SqlDialect): string | undefined {
  const fold = (name: string) => (dialect.foldsIdentifierCase ? name.toLowerCase() : name);
  const seen = new Set(AIRBYTE_COLUMNS.map(fold));
  for (const name of [table.name, ...table.columns.map((column) => column.name)]) {
    if (Buffer.byteLength(name) > dialect.maxIdentifierBytes) return `the name ${JSON.stringify(name)} is longer than ${dialect.maxIdentifierBytes} bytes`;
    quoteIdentifier(name);
  }
  for (const column of table.columns) {
    if (seen.has(fold(column.name))) return `the column ${JSON.stringify(column.name)} appears twice or is one of ${AIRBYTE_COLUMNS.join(', ')}`;
    seen.add(fold(column.name));
  }
  const missing = table.primaryKey.find((key) => !table.columns.some((column) => column.name === key));
  return missing === undefined ? undefined : `its primary key ${JSON.stringify(missing)} is not one of its columns`;
}

/**
 * `<name>_airbyte_tmp`, or when that is too long for the database a shortened name made unique by a
 * hash of the full one (truncated alike, two streams' staging tables would be one).
 */
export function stagingTableName(name: string, dialect: SqlDialect): string {
  const staging = `${name}${STAGING_SUFFIX}`;
  if (Buffer.byteLength(staging) <= dialect.maxIdentifierBytes) return staging;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  const room = dialect.maxIdentifierBytes - STAGING_SUFFIX.length - hash.length - 1;
  return `${truncateUtf8(name, room)}_${hash}${STAGING_SUFFIX}`;
}

/** The longest start of `text` within `maxBytes` of UTF-8, cut on a character boundary. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > maxBytes) break;
    out += char;
  }
  return out;
}

/** Columns of `wanted` an existing table lacks (compared as the database compares names). */
export function missingColumns(wanted: SqlColumn[], existing: string[], dialect: SqlDialect): SqlColumn[] {
  const fold = (name: string) => (dialect.foldsIdentifierCase ? name.toLowerCase() : name);
  const have = new Set(existing.map(fold));
  return wanted.filter((column) => !have.has(fold(column.name)));
}
