import cors from '@koa/cors';
import type { Middleware } from 'koa';
import { originMatches } from '../../core/hosted/allowed-origin.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import { bearerToken } from './authenticate.ts';

/**
 * CORS for the embedded widget only: a response carries Access-Control-Allow-Origin just when the
 * request's scoped token is a widget's and the Origin is its `allowed_origin`.
 *
 * Preflights carry no token, so they are answered for any origin. Narrowing them to the origins of
 * live widget tokens needs those origins recorded where every instance sees them (a store table);
 * a per-process list would refuse a valid widget after a restart or on another instance. What a
 * preflight grants is only permission to send the real request, and that request is where the
 * origin is enforced: a widget token from another origin is a 403 before anything runs, and no
 * response is readable by a page without this header (README "Hosted server").
 */
export function widgetCors(tokens: TokenService): Middleware {
  return cors({
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['Content-Disposition', 'Content-Range', 'Retry-After'],
    maxAge: 600,
    origin: async (ctx) => {
      const origin = ctx.get('Origin');
      if (ctx.method === 'OPTIONS') return origin;
      const token = bearerToken(ctx);
      if (!token) return '';
      const claims = await tokens.verify(token, 'scoped').catch(() => undefined);
      return claims?.widget && originMatches(claims.widget.allowed_origin, origin) ? origin : '';
    },
  });
}
