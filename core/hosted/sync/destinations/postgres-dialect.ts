import type { SqlDialect } from './table-columns.ts';

/** PostgreSQL's column types and naming rules for synced tables. */
export const POSTGRES_DIALECT: SqlDialect = {
  types: {
    string: 'TEXT',
    integer: 'BIGINT',
    number: 'DOUBLE PRECISION',
    boolean: 'BOOLEAN',
    json: 'JSONB',
    rawId: 'TEXT',
    extractedAt: 'TIMESTAMP WITH TIME ZONE',
    meta: 'JSONB',
  },
  maxIdentifierBytes: 63,
  foldsIdentifierCase: false,
  booleans: 'boolean',
  textAllowsNul: false,
};
