/**
 * Google's partial-response selectors (`fields`): `a,b` several fields, `a/b` field b inside a,
 * `a(b,c)` a sub-selection, `*` everything at that level. A caller may slim a response with one;
 * fields.ts widens it with the paths an action cannot do without.
 */

/** `selector` plus each of `paths` (`nextPageToken`, `files/id`) it does not already select. */
export function widenSelector(selector: string, paths: readonly string[]): string {
  const items = topLevelItems(selector);
  const missing = paths.filter((path) => !selects(items, path.split('/')));
  return missing.length === 0 ? selector : [selector, ...missing].join(',');
}

/** Whether one of the selector's items selects `path` (given as segments). */
function selects(items: string[], path: string[]): boolean {
  return items.some((item) => {
    const open = item.indexOf('(');
    const segments = (open < 0 ? item : item.slice(0, open)).split('/').map((segment) => segment.trim());
    for (let i = 0; i < segments.length; i++) {
      if (segments[i] === '*') return true;
      // The item names something the path does not go through (or goes deeper than the path).
      if (i >= path.length || segments[i] !== path[i]) return false;
    }
    if (open < 0) return true; // `files` or `files/id` selects all of itself
    const rest = path.slice(segments.length);
    return rest.length === 0 || selects(topLevelItems(item.slice(open + 1, item.lastIndexOf(')'))), rest);
  });
}

/** Splits a selector on its top-level commas (not those inside parentheses). */
function topLevelItems(selector: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      items.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push(selector.slice(start).trim());
  return items.filter((item) => item !== '');
}
