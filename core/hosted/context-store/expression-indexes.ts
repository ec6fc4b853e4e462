import { createHash } from 'node:crypto';
import type { FieldCatalog } from './field-catalog.ts';
import type { SearchDialect } from './search-dialect.ts';

/**
 * CREATE INDEX statements for an entity's indexed fields: one partial index per field on the very
 * expression searches compare and sort by, so `eq`, ranges, `in` and sorts on it need no scan.
 * Derived from the connector's declaration, so a newly indexed field gets its index at the next start.
 */
export function expressionIndexes(dialect: SearchDialect, catalog: FieldCatalog): string[] {
  const entity = catalog.entity.replace(/'/g, "''");
  return catalog.indexedFields.map((field) => {
    const keys = field.steps.map((step) => ('key' in step ? step.key : ''));
    const kind = field.node.kind;
    const value = dialect.value('data', keys, kind);
    const name = `context_${createHash('sha256')
      .update(`${catalog.entity}\0${keys.join('\0')}\0${value}`)
      .digest('hex')
      .slice(0, 16)}`;
    return `CREATE INDEX IF NOT EXISTS ${name} ON context_records (store_key, ${dialect.name === 'postgres' ? `(${value})` : value}) WHERE entity = '${entity}'`;
  });
}
