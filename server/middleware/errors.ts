import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { NotReadyError, PlugboardError, RateLimitedError } from '../../core/errors.ts';

/**
 * Every failure leaves as a JSON error body: `detail`, plus `error_code` when the error has one.
 * Errors raised by Koa's own machinery (body too large, malformed JSON, wrong content type) keep
 * their 4xx status; anything unexpected is a 500 whose body says nothing about the cause (the log has
 * it, without request data).
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof PlugboardError) {
        ctx.status = error.status;
        ctx.body = error.toJSON();
        if ((error instanceof RateLimitedError || error instanceof NotReadyError) && error.retryAfterSeconds !== undefined)
          ctx.set('Retry-After', String(error.retryAfterSeconds));
        return;
      }
      const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = { detail: clientErrorDetail(status, error as Error) };
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal server error' };
    }
  };
}

function clientErrorDetail(status: number, error: Error): string {
  if (status === 413) return 'Request body too large';
  if (status === 415) return 'Content-Type must be application/json';
  if (status === 400 && /json|unexpected|parse|prototype/i.test(error.message)) return 'Malformed JSON body';
  if (status === 400) return 'Malformed request body';
  return 'Bad request';
}
