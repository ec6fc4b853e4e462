import { invalidField } from '../errors.ts';
import { pathSegmentProblem } from '../schema/unsafe-text.ts';
import type { UpstreamCall } from '../sdk/index.ts';

export interface EncodedRequest {
  url: string;
  method: UpstreamCall['method'];
  headers: Record<string, string>;
  searchParams?: Record<string, string | number | boolean>;
  form?: Record<string, string | number | boolean>;
  json?: Record<string, unknown>;
}

/**
 * Turns validated params into an upstream request as the call declares: defaults first, then
 * `{name}` path placeholders and header params taken out, the rest as query string or body.
 */
export function encodeRequest(baseUrl: string, call: UpstreamCall, params: Record<string, unknown>): EncodedRequest {
  const rest: Record<string, unknown> = { ...call.defaults, ...params };
  const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    checkPathSegment(value, name);
    return encodeURIComponent(value);
  });
  const headers: Record<string, string> = {};
  for (const [header, param] of Object.entries(call.headerParams ?? {})) {
    if (rest[param] !== undefined) {
      headers[header] = String(rest[param]);
      if (header.toLowerCase() === 'range') checkByteRange(headers[header], param);
    }
    delete rest[param];
  }
  const request: EncodedRequest = { url: baseUrl + path, method: call.method, headers };
  if (call.method === 'GET') request.searchParams = toScalars(rest);
  else if (call.body === 'form') request.form = toScalars(rest);
  else request.json = rest;
  return request;
}

/** A path param must name one segment of the declared path, never step to another (`..`), and be encodable. */
function checkPathSegment(value: string, param: string): void {
  const problem = pathSegmentProblem(value);
  if (problem) throw invalidField(['body', 'params', param], problem.msg, problem.type);
}

/**
 * RFC 9110 14.1.1: a byte range whose last position is before its first is invalid, and a server
 * ignores such a header and answers the whole content with 200. The caller asked for a part, so
 * that is their mistake to hear about (422), not a whole file to hand them. A JSON Schema pattern
 * cannot compare the two numbers; the shape itself is the params schema's job.
 */
function checkByteRange(header: string, param: string): void {
  const range = /^bytes=(\d+)-(\d+)$/.exec(header.trim());
  if (range && BigInt(range[2]!) < BigInt(range[1]!)) {
    throw invalidField(
      ['body', 'params', param],
      `the last byte position is before the first (${header}): give bytes=first-last with last >= first`,
      'value_error.range',
    );
  }
}

function toScalars(params: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  return out;
}
