import type { SqlDialect } from './table-columns.ts';

/** SQLite keeps JSON, raw ids and timestamps as TEXT: a declared type of JSON would give the column numeric affinity. */
export const SQLITE_DIALECT: SqlDialect = {
  types: { string: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', json: 'TEXT', rawId: 'TEXT', extractedAt: 'TEXT', meta: 'TEXT' },
  maxIdentifierBytes: Number.POSITIVE_INFINITY,
  foldsIdentifierCase: true,
  booleans: 'integer',
  textAllowsNul: true,
};
