import cors from '@koa/cors';
import type { Middleware, ParameterizedContext } from 'koa';
import { originMatches } from '../../core/hosted/allowed-origin.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import type { WidgetOrigins } from '../../core/hosted/widget-origins.ts';
import { bearerToken } from './authenticate.ts';

/**
 * CORS for the embedded widget only: a response carries Access-Control-Allow-Origin just when the
 * request's token is a widget's and the Origin is its `allowed_origin`.
 *
 * Preflights carry no token, so the origin alone decides: they are answered, with every CORS
 * preflight header, only for the origin of a widget token that has not expired, as recorded in the
 * store when the token was issued (so every instance, and a restarted one, knows it). Any other
 * preflight is a 204 without CORS headers, and the browser sends nothing more. The real request is
 * still checked against its token: a widget token from another origin is a 403 before anything runs
 * (docs/hosted-api.md).
 */
export function widgetCors(tokens: TokenService, origins: WidgetOrigins): Middleware {
  const answer = cors({
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['Content-Disposition', 'Content-Range', 'Retry-After'],
    maxAge: 600,
    origin: async (ctx) => {
      const origin = ctx.get('Origin');
      if (!origin) return '';
      if (ctx.method === 'OPTIONS') return (await origins.isLive(origin)) ? origin : '';
      const token = bearerToken(ctx);
      if (!token) return '';
      const claims = await tokens.verify(token, 'widget').catch(() => undefined);
      return claims && originMatches(claims.widget.allowed_origin, origin) ? origin : '';
    },
  });
  // @koa/cors hands a request whose origin it refuses on to the route; a refused preflight stops here
  // instead (the route would answer a misleading 401: a preflight never has a token to send).
  return (ctx, next) => answer(ctx, () => (isPreflight(ctx) ? refusePreflight(ctx) : next()));
}

function isPreflight(ctx: ParameterizedContext): boolean {
  return ctx.method === 'OPTIONS' && ctx.get('Origin') !== '' && ctx.get('Access-Control-Request-Method') !== '';
}

/** Answered, with no CORS header: the browser then blocks the request it asked about. */
async function refusePreflight(ctx: ParameterizedContext): Promise<void> {
  ctx.status = 204;
}
