import type { ApiError, ValidationIssue } from './api.ts';
import { html } from './html.ts';

type Loc = ValidationIssue['loc'];

/** The issues of a failed request whose `loc` starts with `prefix` (`['body', 'schedule']`...); none for a failure that names no field. */
export function issuesUnder(error: ApiError | undefined, prefix: Loc): ValidationIssue[] {
  if (!error || !Array.isArray(error.detail)) return [];
  return error.detail.filter((issue) => prefix.every((part, index) => String(issue.loc[index]) === String(part)));
}

/** Issues said beside the control they name (the control points here with aria-describedby). */
export function FieldIssues({ id, issues }: { id: string; issues: ValidationIssue[] }) {
  if (issues.length === 0) return null;
  return html`<ul id=${id} class="issues" role="alert">
    ${issues.map((issue) => html`<li>${issue.msg}</li>`)}
  </ul>`;
}
