import type { ApiFailure, ValidationIssue } from './api.ts';
import { h } from './dom.ts';
import type { Field } from './form-fields.ts';

/** A failure as the form shows it: the server's, or the widget's own words for it with a way out (a button beside the message). */
export interface FormFailure extends ApiFailure {
  action?: { label: string; run(): void };
}

/** What the form's own checks find, as issues at each field's place. */
export function checkFields(fields: Field[]): ValidationIssue[] {
  return fields.flatMap((field) => {
    const msg = field.check();
    return msg === undefined ? [] : [{ loc: field.loc, msg, type: 'value_error.widget' }];
  });
}

/** A failure as issues: a 422's list, or one issue for a refused credential (beside the credentials) or anything else (above the buttons). */
export function issuesOf(failure: ApiFailure): ValidationIssue[] {
  if (Array.isArray(failure.detail)) return failure.detail;
  const loc = failure.error_code === 'credentials_rejected' ? ['body', 'credentials'] : [];
  return [{ loc, msg: failure.detail, type: failure.error_code }];
}

/**
 * The form's own issues and the server's, in one list: a field the form found wrong keeps its words
 * (the same whichever round of the server's checks got to it), the server's fill the rest.
 */
export function combined(fields: Field[], own: ValidationIssue[], server: ValidationIssue[]): ValidationIssue[] {
  const checked = new Set<Field | undefined>(own.map((issue) => fieldAt(fields, issue.loc)));
  return [...own, ...server.filter((issue) => !checked.has(fieldAt(fields, issue.loc)))];
}

/** Shows each issue beside the field whose `loc` is the longest prefix of its own; answers the fields that got one, in form order. */
export function showIssues(fields: Field[], formError: HTMLElement, issues: ValidationIssue[], action?: FormFailure['action']): Field[] {
  const messages = new Map<Field, string[]>();
  const unplaced: string[] = [];
  for (const issue of issues) {
    const field = fieldAt(fields, issue.loc);
    if (field) messages.set(field, [...(messages.get(field) ?? []), issue.msg]);
    else unplaced.push(issue.msg);
  }
  for (const field of fields) field.showError(messages.get(field)?.join('; '));
  const buttons = action ? [h('button', { type: 'button', onclick: () => action.run() }, action.label)] : [];
  formError.replaceChildren(...unplaced.map((message) => h('p', {}, message)), ...buttons);
  formError.hidden = unplaced.length === 0;
  formError.tabIndex = -1;
  return fields.filter((field) => messages.has(field));
}

export function summaryOf(issues: ValidationIssue[], placed: Field[]): string {
  if (placed.length === 0) return issues.map((issue) => issue.msg).join(' ');
  return `Please check ${placed.length === 1 ? 'this field' : `these ${placed.length} fields`}: ${placed.map((field) => field.title).join(', ')}.`;
}

function fieldAt(fields: Field[], at: ValidationIssue['loc']): Field | undefined {
  const loc = at.map(String);
  return fields.filter((candidate) => candidate.loc.every((key, index) => loc[index] === key)).sort((a, b) => b.loc.length - a.loc.length)[0];
}
