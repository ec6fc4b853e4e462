import type { ParameterizedContext } from 'koa';
import { problemOf } from '../middleware/problem-details.ts';
import { PUBLIC_API_ROOTS } from './public-api.ts';

/**
 * A request of the public cloud API that no route takes (404), or not with its method (405, the
 * router's Allow header kept), answered as the API's failures are: problem details. Answers whether
 * it was one. `routesAnswerProblems`: whether the routes at the path (with other methods) answer
 * problem details, undefined when no route has the path: then it is the public API's when it is under
 * one of its roots (the hosted API's few routes under /v1 keep their own error body).
 */
export function answerUnmatchedPublicRequest(ctx: ParameterizedContext, status: 404 | 405, routesAnswerProblems: boolean | undefined): boolean {
  const underRoot = PUBLIC_API_ROOTS.some((root) => ctx.path === root || ctx.path.startsWith(`${root}/`));
  if (!(routesAnswerProblems ?? underRoot)) return false;
  const detail = status === 404 ? `No operation at ${ctx.path}` : `${ctx.method} is not an operation of ${ctx.path}`;
  ctx.type = 'application/problem+json';
  ctx.body = problemOf({ status, body: { detail, error_code: status === 404 ? 'operation_not_found' : 'method_not_allowed' } });
  ctx.status = status;
  return true;
}
