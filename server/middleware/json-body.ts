import type { ParameterizedContext } from 'koa';

/**
 * A route that takes a JSON body refuses a body of any other Content-Type with a 415 (a route that
 * also takes forms, a form too). Without this a `text/plain` JSON body would reach validation as `{}`
 * and be answered "field required", which sends the caller looking in the wrong place. A request with
 * no body at all is left to validation.
 */
export function requireJsonBody(ctx: ParameterizedContext, acceptForm = false): void {
  if (!hasBody(ctx)) return;
  const read = (ctx.request.rawBody as string | undefined) !== undefined;
  const form = ctx.is('application/x-www-form-urlencoded') !== false;
  if (!read || (form && !acceptForm)) ctx.throw(415);
}

function hasBody(ctx: ParameterizedContext): boolean {
  // Chunked bodies announce no length; their emptiness can't be known without reading them.
  return (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
}
