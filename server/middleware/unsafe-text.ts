import type { ValidationIssue } from '../../core/errors.ts';
import { pathSegmentProblem, unsafeTextProblem, type TextProblem } from '../../core/schema/unsafe-text.ts';

/** Enough to show the caller what to fix; a body of a million NULs doesn't get a million issues back. */
const MAX_ISSUES = 20;

/** A value met on the walk; its loc is rebuilt from the parent chain only when it has a problem (copying it at every level would be quadratic in the depth). */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

/**
 * Where a request value holds text that cannot be passed on (U+0000, a lone UTF-16 surrogate: see
 * unsafeTextProblem), in string values and object keys at any depth, as validation issues (`loc`,
 * `msg`, `type`). Refused for every route before any handler runs, whatever the backend, so both
 * stores answer the same. The walk keeps its own stack because a body may nest deeper than the call
 * stack (JSON.parse is not recursive, this must not be either).
 */
export function unsafeTextIssues(value: unknown, locPrefix: Array<string | number>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      const problem = unsafeTextProblem(current);
      if (problem) issues.push(issue(locPrefix, visit, problem));
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], key: index, parent: visit });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        const childVisit: Visit = { value: child, key, parent: visit };
        const problem = unsafeTextProblem(key);
        if (problem) issues.push(issue(locPrefix, childVisit, problem));
        else pending.push(childVisit);
      }
    }
  }
  return issues.slice(0, MAX_ISSUES);
}

/** Path params that cannot stand as one segment (see pathSegmentProblem): `.` and `..` besides unsafe text. */
export function pathParamIssues(params: Record<string, string>): ValidationIssue[] {
  return Object.entries(params).flatMap(([name, value]) => {
    const problem = pathSegmentProblem(value);
    return problem ? [{ loc: ['path', name], msg: problem.msg, type: problem.type }] : [];
  });
}

/**
 * Whether a JSON body, given its text, may hold unsafe text, so is worth the walk: in JSON text
 * U+0000 can only be written as the escape `\u0000` (a raw control character does not parse), and a
 * lone surrogate only as a `\uD800`-`\uDFFF` escape (raw bytes that are not UTF-8 decode to U+FFFD), so
 * text without such an escape holds neither. No text (nothing was read as JSON): walked, to be safe.
 */
export function jsonMayHoldUnsafeText(rawBody: string | undefined): boolean {
  return rawBody === undefined || /\\u(0000|[dD][89a-fA-F])/.test(rawBody);
}

function issue(locPrefix: Array<string | number>, visit: Visit, problem: TextProblem): ValidationIssue {
  const path: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return { loc: [...locPrefix, ...path.reverse()], msg: problem.msg, type: problem.type };
}
