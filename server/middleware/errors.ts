import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import { BusyError, type ErrorBody, NotReadyError, PlugboardError, RateLimitedError } from '../../core/errors.ts';
import { problemOf } from './problem-details.ts';

/** A failure as the API answers it: status, the JSON error body, and a Retry-After when it has one. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  retryAfterSeconds?: number;
}

/**
 * Every failure leaves as a JSON error body: `detail`, plus `error_code` when the error has one.
 * Errors raised by Koa's own machinery (body too large, malformed JSON, wrong content type) keep
 * their 4xx status; anything unexpected is a 500 whose body says nothing about the cause (the log has
 * it, without request data).
 */
export function errorAnswer(error: unknown, logger: Logger, ctx: ParameterizedContext): ErrorAnswer {
  if (error instanceof PlugboardError) {
    const retry = (error instanceof RateLimitedError || error instanceof NotReadyError || error instanceof BusyError) && error.retryAfterSeconds !== undefined;
    return { status: error.status, body: error.toJSON(), ...(retry ? { retryAfterSeconds: error.retryAfterSeconds } : {}) };
  }
  const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, body: { detail: clientErrorDetail(status, error as Error) } };
  logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
  return { status: 500, body: { detail: 'Internal server error' } };
}

/** `asProblem`: whether the request's route answers failures as problem details (the public cloud API). */
export function errorHandler(logger: Logger, asProblem: (ctx: ParameterizedContext) => boolean): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const answer = errorAnswer(error, logger, ctx);
      // An upstream that failed is the operator's to see too (a wrong PLUGBOARD_<TYPE>_BASE_URL): its detail names no secret.
      if (answer.status === 502 || answer.status === 504)
        logger.warn({ method: ctx.method, path: ctx.path, status: answer.status, ...answer.body }, 'upstream failed');
      if (asProblem(ctx)) {
        const problem = problemOf(answer);
        ctx.status = problem.status;
        ctx.type = 'application/problem+json';
        ctx.body = problem;
      } else {
        ctx.status = answer.status;
        ctx.body = answer.body;
      }
      if (answer.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(answer.retryAfterSeconds));
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
