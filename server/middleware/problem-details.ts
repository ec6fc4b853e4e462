import { STATUS_CODES } from 'node:http';
import type { ValidationIssue } from '../../core/errors.ts';
import type { ErrorAnswer } from './errors.ts';

/** RFC 9457 problem details, the public cloud API's failure body. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues?: ValidationIssue[];
}

/**
 * A failure as problem details: `type` a URN naming the error code (or about:blank), `title` the
 * status's reason phrase, `detail` for people. Invalid input is a 400, as the official API answers
 * it, with the issues (`{loc, msg, type}`) under `issues`.
 */
export function problemOf({ status: given, body }: ErrorAnswer): ProblemDetails {
  const status = given === 422 ? 400 : given;
  const issues = Array.isArray(body.detail) ? body.detail : undefined;
  return {
    type: body.error_code ? `urn:plugboard:error:${body.error_code}` : 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: issues ? issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ') : (body.detail as string),
    ...(issues ? { issues } : {}),
  };
}
