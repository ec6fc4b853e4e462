import { HTTPError, ParseError, RequestError, TimeoutError } from 'got';
import { errorForStatus, PlugboardError, RateLimitedError, UpstreamError } from '../errors.ts';
import type { TransportSettings, UpstreamErrorSettings } from '../sdk/index.ts';
import { readPath } from './object-path.ts';

/**
 * A failure the upstream reported inside a success body (Slack's HTTP 200 `ok: false`). Thrown from
 * got's afterResponse hook so the body goes through got's retry policy like an HTTP error would.
 */
export class UpstreamBodyFailure extends Error {
  /** got retries a thrown error only when its `code` is in `retry.errorCodes`. */
  static readonly CODE = 'EUPSTREAMBODYFAILURE';
  readonly code = UpstreamBodyFailure.CODE;

  constructor(readonly body: unknown) {
    super('Upstream reported a failure in its response body');
    this.name = 'UpstreamBodyFailure';
  }
}

/**
 * The most got waits between two attempts, in ms (its `retry.backoffLimit`): the exponential backoff
 * runs 1 s, 2 s, then stays at this bound. A still-limited caller's Retry-After hint follows it too.
 */
export const BACKOFF_LIMIT_MS = 2_000;

/** How an upstream failure is retried: `rate_limit` always, `transient` on reads only, `final` never. */
export type FailureKind = 'rate_limit' | 'transient' | 'final';

/** `code` is the upstream's error code for this failure, as `upstreamCode` reads it (read once per failure). */
export function failureKind(error: RequestError, code: string | undefined, settings: UpstreamErrorSettings): FailureKind {
  const status = error.response?.statusCode;
  if (status === 429 || (code !== undefined && settings.rateLimitCodes?.includes(code))) return 'rate_limit';
  if (code !== undefined && settings.transientCodes?.includes(code)) return 'transient';
  if (error.cause instanceof UpstreamBodyFailure) return 'final';
  // A 4xx answer is only ever offered for a retry because it might have carried a rate-limit code.
  if (error instanceof HTTPError && error.response.statusCode < 500) return 'final';
  // 5xx, network failures and timeouts, a body cut short.
  return 'transient';
}

/** `code` is `codeIn(body)`; `detailSuffix` is appended to the detail (a 416's content length). */
function errorFromErrorBody(
  body: unknown,
  code: string | undefined,
  settings: UpstreamErrorSettings,
  upstreamStatus: number,
  fallbackStatus: number,
  detailSuffix = '',
): PlugboardError {
  const status = (code && settings.statusByCode[code]) || fallbackStatus;
  const detail = describeFailure(body, settings, code, upstreamStatus) + detailSuffix;
  // Without an upstream code, name the upstream status: "502" alone would hide that Slack sent a 503.
  const errorCode = code ?? (upstreamStatus < 300 ? 'upstream_error' : `upstream_http_${upstreamStatus}`);
  // A 429 (a code mapped to it) is a RateLimitedError without a Retry-After hint.
  return errorForStatus(status, detail, errorCode);
}

/**
 * Maps every way an upstream call can fail to one typed error. Only upstream codes and statuses reach
 * the caller: never the upstream URL, headers or body, which could carry credentials. A declared
 * rate-limit code is a 429 by declaration; `statusByCode` need not repeat it.
 */
export function errorFromGot(error: unknown, settings: TransportSettings): PlugboardError {
  const { errors } = settings;
  if (error instanceof RequestError && error.response && (error instanceof HTTPError || error.cause instanceof UpstreamBodyFailure)) {
    const { response } = error;
    const body = upstreamBody(error);
    const code = codeIn(body, errors);
    if (failureKind(error, code, errors) === 'rate_limit') {
      return new RateLimitedError('Upstream rate limit still in force after retries', retryAfterHint(error, settings), code ?? 'rate_limited');
    }
    // An ok:false code nobody listed is the caller's mistake until shown otherwise (SDK: 400).
    const fallbackStatus = error.cause instanceof UpstreamBodyFailure ? 400 : statusForUpstreamStatus(response.statusCode);
    const rangeTotal = response.statusCode === 416 ? rangeTotalSuffix(response.headers['content-range']) : '';
    return errorFromErrorBody(body, code, errors, response.statusCode, fallbackStatus, rangeTotal);
  }
  if (error instanceof TimeoutError) return new UpstreamError('Upstream request timed out', 'upstream_timeout');
  if (error instanceof ParseError) return new UpstreamError('Upstream answered with a body that is not JSON', 'upstream_invalid_json');
  if (error instanceof RequestError)
    return new UpstreamError('Upstream request failed: network error', error.code ? `upstream_${error.code.toLowerCase()}` : 'upstream_unreachable');
  if (error instanceof PlugboardError) return error;
  return new UpstreamError('Upstream request failed', 'upstream_error');
}

function describeFailure(body: unknown, settings: UpstreamErrorSettings, errorCode: string | undefined, upstreamStatus: number): string {
  if (errorCode && settings.detailByCode?.[errorCode]) return settings.detailByCode[errorCode];
  if (!errorCode) return upstreamStatus < 300 ? 'Upstream reported a failure without an error code' : `Upstream request failed with status ${upstreamStatus}`;
  const message = settings.messagePath === undefined ? undefined : readPath(body, settings.messagePath);
  return typeof message === 'string' && message !== ''
    ? `Upstream rejected the request: ${errorCode} (${message})`
    : `Upstream rejected the request: ${errorCode}`;
}

/** A 4xx upstream status keeps its meaning unless it is about our credentials; 5xx is the upstream's fault. */
function statusForUpstreamStatus(status: number): number {
  if (status === 401 || status === 403 || status >= 500) return 502;
  return status;
}

/**
 * An unsatisfiable range: the detail's suffix telling the caller how long the content is, when the
 * upstream said (`bytes *\/N`); empty otherwise.
 */
function rangeTotalSuffix(contentRange: string | undefined): string {
  const total = contentRange === undefined ? undefined : /^bytes \*\/(\d+)$/.exec(contentRange.trim())?.[1];
  return total === undefined ? '' : `; the content is ${total} bytes long`;
}

/**
 * The Retry-After a still-limited caller should honour: the upstream's own, or else the next step
 * of the exponential backoff we were following: 2^retries seconds, capped like got's backoff by
 * `BACKOFF_LIMIT_MS` (rounded up to whole seconds), and within our Retry-After bound.
 */
function retryAfterHint(error: RequestError, settings: TransportSettings): number {
  const upstream = parseRetryAfter(error.response?.headers['retry-after']);
  if (upstream !== undefined) return upstream;
  const backoff = Math.min(2 ** (error.request?.retryCount ?? settings.maxRetries), Math.ceil(BACKOFF_LIMIT_MS / 1000));
  return Math.min(settings.maxRetryAfterSeconds, backoff);
}

/** The upstream's error code for a failure: from an ok:false body, or an error response's JSON body. */
export function upstreamCode(error: RequestError, settings: UpstreamErrorSettings): string | undefined {
  return error.cause instanceof UpstreamBodyFailure || error.response ? codeIn(upstreamBody(error), settings) : undefined;
}

/** The failure's body: the ok:false body as got parsed it, or the error response's body parsed as JSON. */
function upstreamBody(error: RequestError): unknown {
  return error.cause instanceof UpstreamBodyFailure ? error.cause.body : parseJson(error.response?.body);
}

function codeIn(body: unknown, settings: UpstreamErrorSettings): string | undefined {
  const code = readPath(body, settings.codePath);
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

function parseRetryAfter(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
