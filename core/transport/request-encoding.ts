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
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const headers: Record<string, string> = {};
  for (const [header, param] of Object.entries(call.headerParams ?? {})) {
    if (rest[param] !== undefined) headers[header] = String(rest[param]);
    delete rest[param];
  }
  const request: EncodedRequest = { url: baseUrl + path, method: call.method, headers };
  if (call.method === 'GET') request.searchParams = toScalars(rest);
  else if (call.body === 'form') request.form = toScalars(rest);
  else request.json = rest;
  return request;
}

function toScalars(params: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  return out;
}
