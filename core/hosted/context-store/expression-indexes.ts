import { createHash } from 'node:crypto';
import type { FieldCatalog } from './field-catalog.ts';
import type { SearchDialect } from './search-dialect.ts';

/**
 * CREATE INDEX statements for an entity's indexed fields: one partial index per field on the very
 * expression searches compare and sort by, so `eq`, ranges, `in` and sorts on it need no scan.
 * Derived from the connector's declaration, so a newly indexed field gets its index at the next start.
 * Sorts put absent values last both ways: SQLite's index serves both (NULL is its smallest value, so
 * a plain DESC ends with it); a PostgreSQL index read backwards would put them first, so PostgreSQL
 * has a second, descending index for descending sorts.
 */
export function expressionIndexes(dialect: SearchDialect, catalog: FieldCatalog): string[] {
  const entity = catalog.entity.replace(/'/g, "''");
  return catalog.indexedFields.flatMap((field) => {
    const keys = field.steps.map((step) => ('key' in step ? step.key : ''));
    const value = dialect.value('data', keys, field.node.kind);
    const index = (order: string) => {
      const name = `context_${createHash('sha256')
        .update(`${catalog.entity}\0${keys.join('\0')}\0${value}${order ? `\0${order}` : ''}`)
        .digest('hex')
        .slice(0, 16)}`;
      const term = dialect.name === 'postgres' ? `(${value})${order ? ` ${order}` : ''}` : value;
      return `CREATE INDEX IF NOT EXISTS ${name} ON context_records (store_key, ${term}) WHERE entity = '${entity}'`;
    };
    return dialect.name === 'postgres' ? [index(''), index('DESC NULLS LAST')] : [index('')];
  });
}
