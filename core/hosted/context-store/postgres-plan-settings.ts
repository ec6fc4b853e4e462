import type { FieldCatalog, ResolvedField } from './field-catalog.ts';
import { walkableText } from './compile-search.ts';
import type { Filter, SearchPlan } from './search-query.ts';

/** Planner settings for one search statement, each set with SET LOCAL (they end with its transaction). */
export type PlannerSettings = Readonly<Record<string, string>>;

/**
 * Every search: no parallel workers and no JIT. Both are bought by the plan's estimated cost, which for
 * a search is often the cost of reading the whole entity (a walk that stops after one page is costed
 * as walking to the end): starting workers and compiling took hundreds of milliseconds for pages read
 * in a few, and workers take the cores concurrent searches need.
 */
const EVERY_SEARCH: PlannerSettings = { max_parallel_workers_per_gather: '0', jit: 'off' };

/**
 * PostgreSQL's settings for a search's page (with EVERY_SEARCH's). A page of the first matches in id order whose filter no
 * index narrows (no indexed field, no text index, in the top-level AND) is found by walking the id
 * index and stopping once the page is full: it reads `wanted / share of matches` records, and at
 * worst (a filter few records meet) the entity once, as collecting every match would. The planner
 * cannot see that: it has no statistics for JSON fields outside the indexed ones, so it takes each
 * condition on one for rare, multiplies, and collects and sorts every record of the entity instead
 * (a nested and/or/not on 100,000 users: the whole entity read and sorted for 50 hits). Forbidding
 * the sort leaves it the walk.
 */
export function postgresPlanSettings(filter: Filter, catalog: FieldCatalog, page: { byId: boolean; textDriven: boolean }): PlannerSettings {
  if (!page.byId || page.textDriven) return EVERY_SEARCH;
  const indexed = new Set(catalog.indexedFields.map((field) => field.name));
  return narrowedByIndex(filter, indexed) ? EVERY_SEARCH : { ...EVERY_SEARCH, enable_sort: 'off' };
}

/** Whether an index can find the filter's matches: a condition on the id or an indexed field that every hit meets. */
function narrowedByIndex(filter: Filter, indexed: ReadonlySet<string>): boolean {
  switch (filter.kind) {
    case 'compare':
    case 'in':
      return isId(filter.field) || indexed.has(filter.field.name);
    case 'and':
      return filter.filters.some((part) => narrowedByIndex(part, indexed));
    case 'or':
      // Each branch's index, their matches merged (a BitmapOr).
      return filter.filters.length > 0 && filter.filters.every((part) => narrowedByIndex(part, indexed));
    default:
      return false;
  }
}

/** The document's `id`, which compiles to the record's id column (see ID_ROOT). */
function isId(field: ResolvedField): boolean {
  return field.steps.length === 1 && 'key' in field.steps[0]! && field.steps[0].key === 'id';
}

/**
 * Checking the next record in id order costs about half as much as collecting a candidate of the
 * trigram index (measured at 100,000 users: 10 and 23 µs): the walk reads pages in order, the
 * candidates lie all over the table.
 */
const COLLECT_STEP_COST = 2;

/**
 * PostgreSQL, a lone `like` on a substring field in id order: how many records to check in id order
 * before collecting the candidates instead (see walkThenCollect in compile-search.ts), or undefined
 * for any other search. Where both cost the same: a substring in `d` of `stored` records fills
 * `wanted` hits after `wanted / d` records, and has `d × stored` candidates; the planner cannot
 * weigh that itself (it has no statistics for a pattern within one entity).
 */
export function likeWalkFirst(plan: SearchPlan, stored: number): number | undefined {
  if (plan.sort.length > 0 || walkableText(plan.filter)?.index !== 'trigrams') return undefined;
  return Math.ceil(Math.sqrt(COLLECT_STEP_COST * (plan.offset + plan.limit + 1) * stored));
}
