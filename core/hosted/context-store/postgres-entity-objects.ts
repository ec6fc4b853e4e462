import { createHash } from 'node:crypto';
import type { FieldCatalog, ResolvedField } from './field-catalog.ts';
import { jsonAt, postgresDialect } from './search-dialect.ts';

/**
 * What PostgreSQL needs for an entity besides its expression indexes (expression-indexes.ts), each
 * statement idempotent: its word index, trigram indexes on its substring fields, and statistics on
 * its indexed fields. Partial, like the expression indexes: the entity's records only.
 */
export function postgresEntityObjects(catalog: FieldCatalog, trigramSchema: string): string[] {
  return [...wordIndex(catalog), ...substringIndexes(catalog, trigramSchema), ...fieldStatistics(catalog)];
}

const entityOf = (catalog: FieldCatalog) => `'${catalog.entity.replace(/'/g, "''")}'`;
const objectName = (prefix: string, ...parts: string[]) => `${prefix}_${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16)}`;

/** A GIN index on the records' words (every text field's, prefixed with its slot): keyword and fuzzy find their candidates in it. */
function wordIndex(catalog: FieldCatalog): string[] {
  if (!catalog.textFields.some((field) => field.words)) return [];
  return [`CREATE INDEX IF NOT EXISTS ${objectName('context_words', catalog.entity)} ON context_records USING gin (words) WHERE entity = ${entityOf(catalog)}`];
}

/**
 * A trigram index on each substring field's own expression, the very one `like` compares (see
 * postgresDialect.like): the candidates are records, found without a detour through other rows.
 */
function substringIndexes(catalog: FieldCatalog, trigramSchema: string): string[] {
  const opclass = `"${trigramSchema.replace(/"/g, '""')}".gin_trgm_ops`;
  return catalog.textFields
    .filter((field) => field.trigrams)
    .map((field) => {
      const text = jsonAt('data', keysOf(field), '#>>');
      return `CREATE INDEX IF NOT EXISTS ${objectName('context_trgm', catalog.entity, text)} ON context_records USING gin (${text} ${opclass}) WHERE entity = ${entityOf(catalog)}`;
    });
}

/**
 * Statistics on each indexed field within its entity: the share of each common value, per entity and
 * per JSON type (the expressions searches compare: the type check and the value, see
 * postgresDialect). The expression indexes give the planner none: it ignores a partial index's
 * statistics, and records of all entities share the table. Without them an `in` over common values
 * looked rare, so every match was collected and sorted instead of walking the id index for a page.
 * One object per path and type, shared by the entities that have it (each is sampled by ANALYZE:
 * only the indexed fields, which searches can narrow by, are worth it).
 */
function fieldStatistics(catalog: FieldCatalog): string[] {
  return catalog.indexedFields.map((field) => {
    const keys = keysOf(field);
    // The value as the dialect compares it, without the string's COLLATE: statistics on a collated
    // expression do not match the search's (the planner strips the collation before matching).
    const value = field.node.kind === 'string' ? jsonAt('data', keys, '#>>') : postgresDialect.value('data', keys, field.node.kind);
    const typeOf = `jsonb_typeof(${jsonAt('data', keys, '#>')})`;
    return `CREATE STATISTICS IF NOT EXISTS ${objectName('context_stat', typeOf, value)} (mcv) ON entity, (${typeOf}), (${value}) FROM context_records`;
  });
}

/** The keys of a field outside arrays (text, substring and indexed fields all are). */
function keysOf(field: ResolvedField): string[] {
  return field.steps.map((step) => ('key' in step ? step.key : ''));
}
