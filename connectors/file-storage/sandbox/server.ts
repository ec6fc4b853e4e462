import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOAuthControlPath, oauthControl } from '../../../testing/oauth/index.ts';
import { checkAuth } from './auth.ts';
import { DriveError, faultError } from './errors.ts';
import { checkFault, type FaultBook } from './faults.ts';
import type { HandlerResult } from './handlers/context.ts';
import { sendMedia } from './media.ts';
import type { DriveOAuth } from './oauth.ts';
import { isOAuthEndpoint, serveOAuthEndpoint } from './oauth-endpoints.ts';
import { QueryParams } from './params.ts';
import { API_PREFIX, matchRoute } from './routes.ts';
import type { DriveStore } from './store.ts';
import type { DriveFault, DriveRequestLogEntry } from './types.ts';

/**
 * The HTTP front: logs each API request, authenticates, applies injected faults, routes to a
 * handler, and writes its JSON (pretty-printed unless prettyPrint=false, like Google) or media.
 * Control endpoints live under /_sandbox/ and are not logged as API traffic.
 */

const MAX_BODY_BYTES = 64 * 1024;

export interface ServerDeps {
  token: string;
  store: DriveStore;
  faults: FaultBook;
  /** Null when the sandbox does not record its requests. */
  requests: DriveRequestLogEntry[] | null;
  oauth: DriveOAuth;
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      // A sandbox bug must still produce an answer, or the client under test would hang.
      if (!res.headersSent) sendError(res, new DriveError(500, 'backendError', `Sandbox failure: ${String(err)}`), false);
      else res.destroy();
    });
  };
}

function firstValues(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  if (path.startsWith('/_sandbox/')) return handleControl(deps, req, res, path);
  // Google's OAuth endpoints live on other hosts (accounts.google.com, oauth2.googleapis.com): not Drive API traffic.
  if (isOAuthEndpoint(path)) return serveOAuthEndpoint(req, res, url, deps.oauth);

  const range = req.headers.range ?? null;
  deps.requests?.push({ httpMethod: req.method ?? 'GET', path, query: firstValues(url.searchParams), range });
  const params = new QueryParams(url.searchParams);
  let pretty = true;
  let badPrettyPrint: DriveError | undefined;
  try {
    pretty = params.bool('prettyPrint', true);
  } catch (err) {
    if (!(err instanceof DriveError)) throw err;
    badPrettyPrint = err;
  }

  const authFailure = checkAuth(req, deps.token, deps.oauth);
  if (authFailure) return sendError(res, authFailure, pretty);
  if (badPrettyPrint) return sendError(res, badPrettyPrint, pretty);

  const fault = deps.faults.takeStatus(path);
  if (fault) return sendError(res, faultResponse(fault), pretty);

  const route = path.startsWith(API_PREFIX) ? matchRoute(path) : undefined;
  if (!route) return sendError(res, new DriveError(404, 'notFound', 'Not Found'), pretty);
  if (req.method !== 'GET') {
    return sendError(
      res,
      new DriveError(405, 'methodNotAllowed', `The sandbox emulates read methods only; ${req.method} is not supported here.`, { headers: { allow: 'GET' } }),
      pretty,
    );
  }

  let result: HandlerResult;
  try {
    result = route.handler({ store: deps.store, params, path: route.params });
  } catch (err) {
    if (err instanceof DriveError) return sendError(res, err, pretty);
    throw err;
  }
  if (result.kind === 'json') return sendJson(res, 200, result.body, pretty);
  const mediaFault = deps.faults.takeMedia(path);
  try {
    await sendMedia(res, result.source, {
      mimeType: result.mimeType,
      range,
      ...(mediaFault?.truncateAfterBytes !== undefined ? { truncateAfterBytes: mediaFault.truncateAfterBytes } : {}),
      ...(mediaFault?.stallAfterBytes !== undefined ? { stallAfterBytes: mediaFault.stallAfterBytes } : {}),
      ...(result.headers ? { headers: result.headers } : {}),
    });
  } catch (err) {
    if (err instanceof DriveError) return sendError(res, err, pretty);
    throw err;
  }
}

function faultResponse(fault: DriveFault): DriveError {
  const err = faultError(fault.status, fault.reason, fault.message);
  if (fault.retryAfter !== undefined || fault.status === 429) err.headers['retry-after'] = String(Math.ceil(fault.retryAfter ?? 1));
  return err;
}

async function handleControl(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (path === '/_sandbox/health') return sendJson(res, 200, { status: 'ok' }, false);
  if (isOAuthControlPath(path)) return handleOAuthControl(deps, req, res, path);
  if (path !== '/_sandbox/faults') return sendError(res, new DriveError(404, 'notFound', 'Not Found'), false);
  if (req.method !== 'POST') return sendError(res, new DriveError(405, 'methodNotAllowed', 'Use POST.', { headers: { allow: 'POST' } }), false);
  const body = await readBody(req);
  const authFailure = checkAuth(req, deps.token);
  if (authFailure) return sendError(res, authFailure, false);
  if (body === null) return sendError(res, new DriveError(413, 'requestTooLarge', 'Request body too large.'), false);
  let fault: unknown;
  try {
    fault = JSON.parse(body.toString('utf8'));
  } catch {
    return sendError(res, new DriveError(400, 'parseError', 'Request body is not valid JSON.'), false);
  }
  const problem = checkFault(fault);
  if (problem) return sendError(res, new DriveError(400, 'invalid', `Invalid fault: ${problem}`), false);
  deps.faults.add(fault as DriveFault);
  sendJson(res, 200, { status: 'ok' }, false);
}

/** The control endpoints of OAuth (stats, expire, revoke), behind the static token like the fault endpoint. */
function handleOAuthControl(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string): void {
  req.resume();
  const authFailure = checkAuth(req, deps.token);
  if (authFailure) return sendError(res, authFailure, false);
  const answer = oauthControl(deps.oauth.authority, req.method, path);
  if (answer.kind === 'stats') return sendJson(res, 200, answer.stats, false);
  if (answer.kind === 'done') return sendJson(res, 200, { status: 'ok' }, false);
  if (answer.kind === 'method_not_allowed') {
    return sendError(res, new DriveError(405, 'methodNotAllowed', `Use ${answer.allow}.`, { headers: { allow: answer.allow } }), false);
  }
  sendError(res, new DriveError(404, 'notFound', 'Not Found'), false);
}

/** The body, or null when it exceeds MAX_BODY_BYTES (the rest is drained so the client sees the answer). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, pretty: boolean, headers: Record<string, string> = {}): void {
  const text = pretty ? `${JSON.stringify(body, null, 2)}\n` : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'private, max-age=0, must-revalidate, no-transform',
    vary: 'Origin, X-Origin',
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: DriveError, pretty: boolean): void {
  sendJson(res, err.code, err.toJSON(), pretty, err.headers);
}
