import { parse as parseJson } from '@hapi/bourne';
import coBody from 'co-body';
import type { Middleware } from 'koa';
import { BadRequestError } from '../../core/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-depth.ts';

/** The media types read as JSON: @koa/bodyparser's, which reads the other bodies (forms). */
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
  'application/scim+json',
];
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** As co-body's strict JSON: a body is an object or an array. */
const STRICT_JSON = /^[ \t\n\r]*[[{]/;

/**
 * Reads a JSON body as @koa/bodyparser would (inflated, within `limitBytes`, UTF-8; a `__proto__` key
 * refused), but checks its nesting depth on the text first: a body nested deeper than
 * MAX_JSON_DEPTH is a 400 `body_too_deep` before any object is built. Sets the body and raw body,
 * so the body parser that follows leaves the request alone.
 */
export function readJsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method) || !ctx.is(JSON_TYPES)) return next();
    const raw = (await coBody.text(ctx, { limit: limitBytes, encoding: 'utf-8' })) as string;
    if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
      throw new BadRequestError(`JSON body nested deeper than ${MAX_JSON_DEPTH} arrays and objects`, 'body_too_deep');
    }
    ctx.request.body = parseStrict(raw);
    ctx.request.rawBody = raw;
    await next();
  };
}

function parseStrict(raw: string): unknown {
  if (raw === '') return {};
  try {
    if (!STRICT_JSON.test(raw)) throw new SyntaxError('invalid JSON, only supports object and array');
    return parseJson(raw, { protoAction: 'error' });
  } catch (error) {
    throw Object.assign(error as Error, { status: 400 });
  }
}
