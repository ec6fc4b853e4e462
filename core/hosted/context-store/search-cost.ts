import type { ValidationIssue } from '../../errors.ts';
import type { Filter } from './search-query.ts';

/** What makes a search costly, counted over its parsed filter and sort. */
export interface SearchCost {
  /** Each operator on a field, each and/or/not, each empty filter. */
  conditions: number;
  sortKeys: number;
  /** `like` conditions: each may read every record of the entity, checking a pattern on each. */
  likePatterns: number;
  /** Words of all `fuzzy` conditions: each expands into hundreds of one-edit variants. */
  fuzzyWords: number;
  /** Values of all `in` conditions. */
  inValues: number;
}

/**
 * The most of each a search may ask for (docs/search.md, "Limits"): beyond one, a search is a 422
 * naming that limit. They bound what the time budget cannot see coming: how long the worst allowed
 * query runs, and so how long a thread stays busy with it.
 */
export const SEARCH_LIMITS: Readonly<SearchCost> = { conditions: 64, sortKeys: 4, likePatterns: 8, fuzzyWords: 16, inValues: 1000 };

/** SQLite refuses a LIKE pattern past 50,000 bytes; far shorter ones already say all a search needs. */
export const LIKE_PATTERN_MAX_CHARS = 1000;

const NAMES: Record<keyof SearchCost, { one: string; many: string; type: string }> = {
  conditions: { one: 'condition', many: 'conditions', type: 'value_error.too_many_conditions' },
  sortKeys: { one: 'sort key', many: 'sort keys', type: 'value_error.too_many_sort_keys' },
  likePatterns: { one: 'like pattern', many: 'like patterns', type: 'value_error.too_many_like_patterns' },
  fuzzyWords: { one: 'fuzzy word', many: 'fuzzy words', type: 'value_error.too_many_fuzzy_words' },
  inValues: { one: 'in value', many: 'in values', type: 'value_error.too_many_in_values' },
};

/** The cost of a parsed filter and sort; `conditions` as the parser counted them (the tree no longer shows a filter's implicit ANDs). */
export function costOf(filter: Filter, sortKeys: number, conditions: number): SearchCost {
  const cost: SearchCost = { conditions, sortKeys, likePatterns: 0, fuzzyWords: 0, inValues: 0 };
  const visit = (node: Filter): void => {
    if (node.kind === 'like') cost.likePatterns += 1;
    else if (node.kind === 'fuzzy') cost.fuzzyWords += node.words.length;
    else if (node.kind === 'in') cost.inValues += node.values.length;
    else if (node.kind === 'not' || node.kind === 'any') visit(node.filter);
    else if (node.kind === 'and' || node.kind === 'or') node.filters.forEach(visit);
  };
  visit(filter);
  return cost;
}

/** A 422 issue for each limit the search goes past, at the sort or the filter (conditions are refused while parsing: see FilterParser). */
export function limitIssues(cost: SearchCost, queryLoc: (string | number)[]): ValidationIssue[] {
  const checked: (keyof SearchCost)[] = ['sortKeys', 'likePatterns', 'fuzzyWords', 'inValues'];
  return checked
    .filter((key) => cost[key] > SEARCH_LIMITS[key])
    .map((key) => ({ loc: [...queryLoc, key === 'sortKeys' ? 'sort' : 'filter'], msg: limitMessage(key, cost[key]), type: NAMES[key].type }));
}

export function limitMessage(key: keyof SearchCost, given?: number): string {
  const limit = `a search may have at most ${SEARCH_LIMITS[key]} ${NAMES[key].many}`;
  return given === undefined ? limit : `${limit}; this one has ${given}`;
}

export function limitType(key: keyof SearchCost): string {
  return NAMES[key].type;
}

/** The costly parts a search has, for a person: "4 sort keys, 8 like patterns, 30 conditions". */
export function describeCost(cost: SearchCost): string {
  const parts = (['sortKeys', 'likePatterns', 'fuzzyWords', 'inValues', 'conditions'] as const)
    .filter((key) => cost[key] > 0)
    .map((key) => `${cost[key]} ${cost[key] === 1 ? NAMES[key].one : NAMES[key].many}`);
  return parts.length > 0 ? parts.join(', ') : 'no filter or sort (every record, in id order)';
}
