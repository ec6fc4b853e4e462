import type { TableSpec } from './destination.ts';
import { quoteIdentifier, type SqlColumn } from './table-columns.ts';

/**
 * The SQL every backend shares (SQLite, PostgreSQL and DuckDB all take it as written): `qualified`
 * is a table name already quoted, schema included where the backend has one.
 */

export function createTableSql(qualified: string, columns: SqlColumn[], primaryKey: string[]): string {
  const definitions = columns.map((column) => `${quoteIdentifier(column.name)} ${column.sqlType}${column.notNull ? ' NOT NULL' : ''}`);
  if (primaryKey.length > 0) definitions.push(`PRIMARY KEY (${primaryKey.map(quoteIdentifier).join(', ')})`);
  return `CREATE TABLE ${qualified} (${definitions.join(', ')})`;
}

/** Nullable even for a NOT NULL column: the table's existing rows have no value for it. */
export function addColumnSql(qualified: string, column: SqlColumn): string {
  return `ALTER TABLE ${qualified} ADD COLUMN ${quoteIdentifier(column.name)} ${column.sqlType}`;
}

export function dropTableSql(qualified: string, cascade = false): string {
  return `DROP TABLE IF EXISTS ${qualified}${cascade ? ' CASCADE' : ''}`;
}

/** The new name stays unqualified: a rename keeps the table in its schema. */
export function renameTableSql(qualified: string, newName: string): string {
  return `ALTER TABLE ${qualified} RENAME TO ${quoteIdentifier(newName)}`;
}

/** What swaps a staging table in, in one transaction: the table it replaces dropped, the staging table renamed to it. */
export function swapSql(qualifiedTable: string, qualifiedStaging: string, table: string, cascade: boolean): string[] {
  return [dropTableSql(qualifiedTable, cascade), renameTableSql(qualifiedStaging, table)];
}

/** `INSERT INTO t ("a", "b", ...)`, the rows' source to follow. */
export function insertIntoSql(qualified: string, columns: SqlColumn[]): string {
  return `INSERT INTO ${qualified} (${columns.map((column) => quoteIdentifier(column.name)).join(', ')})`;
}

/** An upsert by primary key (the row written last wins), or nothing to add without a key. */
export function onConflictSql(table: TableSpec, columns: SqlColumn[]): string {
  if (table.primaryKey.length === 0) return '';
  const updates = columns
    .filter((column) => !table.primaryKey.includes(column.name))
    .map((column) => `${quoteIdentifier(column.name)} = excluded.${quoteIdentifier(column.name)}`);
  return ` ON CONFLICT (${table.primaryKey.map(quoteIdentifier).join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
}
