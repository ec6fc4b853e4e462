import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/** One line a request: method, path, status, time. Never headers, query strings or bodies, which carry secrets. */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
    }
  };
}
