import type { ValidationIssue } from '../../core/errors.ts';

/** Enough to show the caller what to fix; a body of a million NULs doesn't get a million issues back. */
const MAX_ISSUES = 20;

/** A value met on the walk; its loc is rebuilt from the parent chain only when it has a NUL (copying it at every level would be quadratic in the depth). */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

/**
 * Where U+0000 occurs in a request value (string values and object keys, at any depth), as SPEC 7
 * issues. PostgreSQL text and jsonb cannot hold it, so it is refused for every route before any
 * handler runs, whatever the backend: both stores answer the same. The walk keeps its own stack
 * because a body may nest deeper than the call stack (JSON.parse is not recursive, this must not be either).
 */
export function nulCharacterIssues(value: unknown, locPrefix: Array<string | number>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) issues.push(issue(locPrefix, visit));
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], key: index, parent: visit });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        const childVisit: Visit = { value: child, key, parent: visit };
        if (key.includes('\u0000')) issues.push(issue(locPrefix, childVisit));
        else pending.push(childVisit);
      }
    }
  }
  return issues.slice(0, MAX_ISSUES);
}

/**
 * Whether a JSON body, given its text, may hold a NUL, so is worth the walk: in JSON text U+0000 can
 * only be written as the escape `\u0000` (a raw control character does not parse), so text without
 * those six characters holds none. No text (nothing was read as JSON): walked, to be safe.
 */
export function jsonMayHoldNul(rawBody: string | undefined): boolean {
  return rawBody === undefined || rawBody.includes('\\u0000');
}

function issue(locPrefix: Array<string | number>, visit: Visit): ValidationIssue {
  const path: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return { loc: [...locPrefix, ...path.reverse()], msg: 'NUL characters (U+0000) are not allowed', type: 'value_error.nul_character' };
}
