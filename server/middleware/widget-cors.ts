import cors from '@koa/cors';
import type { Middleware } from 'koa';
import { originMatches } from '../../core/hosted/allowed-origin.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import { bearerToken } from './authenticate.ts';

/**
 * CORS for the embedded widget only: a response carries Access-Control-Allow-Origin just when the
 * request's scoped token is a widget's and the Origin is its `allowed_origin`. Preflights carry no
 * token, so they are answered for any origin; the real request is where the origin is checked.
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
