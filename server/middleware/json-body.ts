import type { ParameterizedContext } from 'koa';

/**
 * A route that takes a JSON body refuses a body of any other Content-Type with a 415. The body
 * parser only reads JSON and leaves anything else unread (no rawBody), so without this a
 * `text/plain` JSON body would reach validation as `{}` and be answered "field required", which
 * sends the caller looking in the wrong place. A request with no body at all is left to validation.
 */
export function requireJsonBody(ctx: ParameterizedContext): void {
  const readAsJson = (ctx.request.rawBody as string | undefined) !== undefined;
  if (!readAsJson && hasBody(ctx)) ctx.throw(415);
}

function hasBody(ctx: ParameterizedContext): boolean {
  // Chunked bodies announce no length; their emptiness can't be known without reading them.
  return (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
}
