import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout } from 'node:timers/promises';
import { isOAuthControlPath, oauthControl, serveAuthorize } from '../../../testing/oauth/index.ts';
import { Args } from './args.ts';
import { SlackError } from './errors.ts';
import { checkFault, type FaultQueue } from './faults.ts';
import { METHODS, type MethodDef } from './methods/index.ts';
import { AUTHORIZE_PATH, type SlackOAuth } from './oauth.ts';
import type { SandboxStore } from './store.ts';
import type { ArgForm, SandboxFault, SandboxRequestLogEntry } from './types.ts';
import { RawJson, type Wire } from './wire.ts';
import { BOT_SCOPES } from '../bot-scopes.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Scopes a bot token needs for the emulated methods; echoed like Slack's X-OAuth-Scopes header. */
const OAUTH_SCOPES = BOT_SCOPES.join(',');

export interface ServerDeps {
  token: string;
  store: SandboxStore;
  faults: FaultQueue;
  /** Null when the sandbox does not record its requests. */
  requests: SandboxRequestLogEntry[] | null;
  /** Milliseconds each API method waits before answering (the sandbox may change it while running). */
  pace: { latencyMs: number };
  oauth: SlackOAuth;
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(deps, req, res).catch((err: unknown) => {
      // A bug in the sandbox must still produce an answer, or the client under test would hang.
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error', detail: String(err) });
      else res.destroy();
    });
  };
}

async function route(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  if (path === '/_sandbox/health') return sendJson(res, 200, { ok: true });
  if (path === '/_sandbox/faults') return handleFaultRequest(deps, req, res);
  if (isOAuthControlPath(path)) return handleOAuthControl(deps, req, res, path);
  if (path === AUTHORIZE_PATH) return serveAuthorize(req, res, url, deps.oauth.authority, deps.oauth.authorize);
  if (!path.startsWith('/api/')) return sendJson(res, 404, { ok: false, error: 'unknown_method' });
  if (req.method !== 'GET' && req.method !== 'POST') {
    return sendJson(res, 405, { ok: false, error: 'method_not_allowed' }, { allow: 'GET, POST' });
  }

  const method = safeDecode(path.slice('/api/'.length));
  const def: MethodDef | undefined = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  const body = await readBody(req);
  const contentType = headerValue(req.headers['content-type']);
  const parsed = parseArgs(url.searchParams, req.method, body, contentType, def?.write ?? false);
  deps.requests?.push({ method, httpMethod: req.method, contentType, args: parsed.logged, argForm: parsed.form });

  if (!def) return sendJson(res, 404, { ok: false, error: 'unknown_method' });
  if (body === null) return sendJson(res, 413, { ok: false, error: 'request_too_large' });
  if (deps.pace.latencyMs > 0) await setTimeout(deps.pace.latencyMs);

  const authError = def.unauthenticated ? undefined : checkAuth(req, deps.token, deps.oauth);
  if (authError) return sendSlack(res, { ok: false, error: authError });

  const fault = deps.faults.take(method);
  if (fault && !fault.afterProcessing) return sendFault(res, fault);

  let result: Wire | RawJson;
  if (parsed.error) result = { ok: false, error: parsed.error };
  else {
    try {
      const authorization = headerValue(req.headers.authorization);
      const token = def.unauthenticated ? '' : (bearerToken(authorization) ?? '');
      result = def.handle({ store: deps.store, args: new Args(parsed.args), oauth: deps.oauth, authorization, token });
    } catch (err) {
      if (!(err instanceof SlackError)) throw err;
      result = { ok: false, error: err.code };
    }
  }
  if (fault) return sendFault(res, fault);
  sendSlack(res, result);
}

async function handleFaultRequest(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: 'method_not_allowed' }, { allow: 'POST' });
  const body = await readBody(req);
  const authError = checkAuth(req, deps.token);
  if (authError) return sendJson(res, 401, { ok: false, error: authError });
  if (body === null) return sendJson(res, 413, { ok: false, error: 'request_too_large' });
  let fault: unknown;
  try {
    fault = JSON.parse(body.toString('utf8'));
  } catch {
    return sendJson(res, 400, { ok: false, error: 'invalid_json' });
  }
  const problem = checkFault(fault);
  if (problem) return sendJson(res, 400, { ok: false, error: 'invalid_fault', detail: problem });
  deps.faults.add(fault as SandboxFault);
  sendJson(res, 200, { ok: true });
}

/** The control endpoints of OAuth (stats, expire, revoke), behind the static token like the fault endpoint. */
function handleOAuthControl(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string): void {
  req.resume();
  const authError = checkAuth(req, deps.token);
  if (authError) return sendJson(res, 401, { ok: false, error: authError });
  const answer = oauthControl(deps.oauth.authority, req.method, path);
  if (answer.kind === 'stats') return sendJson(res, 200, answer.stats);
  if (answer.kind === 'done') return sendJson(res, 200, { ok: true });
  if (answer.kind === 'method_not_allowed') return sendJson(res, 405, { ok: false, error: 'method_not_allowed' }, { allow: answer.allow });
  sendJson(res, 404, { ok: false, error: 'unknown_method' });
}

/**
 * Only `Authorization: Bearer <token>` authenticates; a `token` argument is deliberately ignored. The
 * static token always does; with `oauth`, so does a live OAuth-issued one (Slack names why others fail).
 */
function checkAuth(req: IncomingMessage, token: string, oauth?: SlackOAuth): string | undefined {
  const header = headerValue(req.headers.authorization)?.trim();
  if (!header) return 'not_authed';
  const presented = bearerToken(header);
  if (presented === '') return 'not_authed';
  if (presented === undefined) return 'invalid_auth';
  if (presented === token) return undefined;
  return oauth ? oauth.refusal(presented) : 'invalid_auth';
}

/** The token of a Bearer header ('' when it has none); undefined for any other scheme. */
function bearerToken(header: string | null): string | undefined {
  const m = /^Bearer(?:\s+(\S*))?$/i.exec(header?.trim() ?? '');
  return m ? (m[1] ?? '') : undefined;
}

interface ParsedArgs {
  /** Arguments the method sees. */
  args: Record<string, unknown>;
  /** Arguments the client sent (logged even where Slack ignores them, e.g. JSON to a read method). */
  logged: Record<string, unknown>;
  form: ArgForm;
  error?: string;
}

function parseArgs(query: URLSearchParams, httpMethod: string, body: Buffer | null, contentType: string | null, write: boolean): ParsedArgs {
  const queryArgs: Record<string, unknown> = Object.fromEntries(query);
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const hasBody = httpMethod === 'POST' && body !== null && body.length > 0;
  if (mime === 'application/x-www-form-urlencoded') {
    const bodyArgs = hasBody && body ? Object.fromEntries(new URLSearchParams(body.toString('utf8'))) : {};
    const args = { ...queryArgs, ...bodyArgs };
    return { args, logged: args, form: 'form' };
  }
  if (mime === 'application/json') {
    if (!hasBody || !body) return { args: queryArgs, logged: queryArgs, form: 'json' };
    let value: unknown;
    let error: string | undefined;
    try {
      value = JSON.parse(body.toString('utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value)) error = 'json_not_object';
    } catch {
      error = 'invalid_json';
    }
    const bodyArgs = error === undefined ? (value as Record<string, unknown>) : {};
    const logged = { ...queryArgs, ...bodyArgs };
    // Slack reads JSON bodies only for write methods; read methods see just the query string.
    if (!write) return { args: queryArgs, logged, form: 'json' };
    return error === undefined ? { args: logged, logged, form: 'json' } : { args: {}, logged, form: 'json', error };
  }
  if (hasBody) {
    return { args: queryArgs, logged: queryArgs, form: 'query', error: mime === '' ? 'missing_post_type' : 'invalid_post_type' };
  }
  return { args: queryArgs, logged: queryArgs, form: 'query' };
}

/** The body, or null when it exceeds MAX_BODY_BYTES (the rest is drained so the client sees the answer). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A malformed %-escape names no method; it must not turn into a 500. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** Slack answers API-level errors with HTTP 200. */
function sendSlack(res: ServerResponse, body: Wire | RawJson): void {
  sendJson(res, 200, body, { 'x-oauth-scopes': OAUTH_SCOPES });
}

function sendFault(res: ServerResponse, fault: SandboxFault): void {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined || fault.status === 429) headers['retry-after'] = String(Math.ceil(fault.retryAfter ?? 1));
  if (fault.error !== undefined) return sendJson(res, fault.status, { ok: false, error: fault.error }, headers);
  if (fault.status === 429) return sendJson(res, 429, { ok: false, error: 'ratelimited' }, headers);
  if (fault.status === 500) return sendJson(res, 500, { ok: false, error: 'internal_error' }, headers);
  if (fault.status > 500) {
    // Gateway failures come from Slack's edge as HTML, not from the API as JSON.
    const text = `<html><head><title>${fault.status} Service Unavailable</title></head><body><h1>${fault.status}</h1>upstream unavailable</body></html>`;
    res.writeHead(fault.status, { ...headers, 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  sendJson(res, fault.status, { ok: false, error: 'invalid_request' }, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body instanceof RawJson ? body.json : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-slack-req-id': randomUUID().replace(/-/g, ''),
  });
  res.end(text);
}
