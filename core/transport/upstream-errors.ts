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

/** How an upstream failure is retried: `rate_limit` always, `transient` on reads only, `final` never. */
export type FailureKind = 'rate_limit' | 'transient' | 'final';

export function failureKind(error: RequestError, settings: UpstreamErrorSettings): FailureKind {
  const status = error.response?.statusCode;
  const code = upstreamCode(error, settings);
  if (status === 429 || (code !== undefined && settings.rateLimitCodes?.includes(code))) return 'rate_limit';
  if (code !== undefined && settings.transientCodes?.includes(code)) return 'transient';
  if (error.cause instanceof UpstreamBodyFailure) return 'final';
  // A 4xx answer is only ever offered for a retry because it might have carried a rate-limit code.
  if (error instanceof HTTPError && error.response.statusCode < 500) return 'final';
  // 5xx, network failures and timeouts, a body cut short.
  return 'transient';
}

function errorFromErrorBody(body: unknown, settings: UpstreamErrorSettings, upstreamStatus: number, fallbackStatus: number): PlugboardError {
  const code = codeIn(body, settings);
  const status = (code && settings.statusByCode[code]) || fallbackStatus;
  const detail = describeFailure(body, settings, code, upstreamStatus);
  // Without an upstream code, name the upstream status: "502" alone would hide that Slack sent a 503.
  const errorCode = code ?? (upstreamStatus < 300 ? 'upstream_error' : `upstream_http_${upstreamStatus}`);
  if (status === 429) return new RateLimitedError(detail, undefined, errorCode);
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
    const body = error.cause instanceof UpstreamBodyFailure ? error.cause.body : parseJson(response.body);
    if (failureKind(error, errors) === 'rate_limit') {
      const code = codeIn(body, errors);
      return new RateLimitedError('Upstream rate limit still in force after retries', retryAfterHint(error, settings), code ?? 'rate_limited');
    }
    // An ok:false code nobody listed is the caller's mistake until shown otherwise (SDK: 400).
    const fallbackStatus = error.cause instanceof UpstreamBodyFailure ? 400 : statusForUpstreamStatus(response.statusCode);
    const mapped = errorFromErrorBody(body, errors, response.statusCode, fallbackStatus);
    if (response.statusCode === 416) return withRangeTotal(mapped, response.headers['content-range']);
    return mapped;
  }
  if (error instanceof TimeoutError) return new UpstreamError('Upstream request timed out', 'upstream_timeout');
  if (error instanceof ParseError) return new UpstreamError('Upstream answered with a body that is not JSON', 'upstream_invalid_json');
  if (error instanceof RequestError) return new UpstreamError('Upstream request failed: network error', error.code ? `upstream_${error.code.toLowerCase()}` : 'upstream_unreachable');
  if (error instanceof PlugboardError) return error;
  return new UpstreamError('Upstream request failed', 'upstream_error');
}

function describeFailure(body: unknown, settings: UpstreamErrorSettings, errorCode: string | undefined, upstreamStatus: number): string {
  if (errorCode && settings.detailByCode?.[errorCode]) return settings.detailByCode[errorCode];
  if (!errorCode) return upstreamStatus < 300 ? 'Upstream reported a failure without an error code' : `Upstream request failed with status ${upstreamStatus}`;
  const message = settings.messagePath === undefined ? undefined : readPath(body, settings.messagePath);
  return typeof message === 'string' && message !== '' ? `Upstream rejected the request: ${errorCode} (${message})` : `Upstream rejected the request: ${errorCode}`;
}

/** A 4xx upstream status keeps its meaning unless it is about our credentials; 5xx is the upstream's fault. */
function statusForUpstreamStatus(status: number): number {
  if (status === 401 || status === 403 || status >= 500) return 502;
  return status;
}

/** An unsatisfiable range: tell the caller how long the content is, when the upstream said (`bytes *\/N`). */
function withRangeTotal(error: PlugboardError, contentRange: string | undefined): PlugboardError {
  const total = contentRange === undefined ? undefined : /^bytes \*\/(\d+)$/.exec(contentRange.trim())?.[1];
  if (total === undefined || typeof error.detail !== 'string') return error;
  return errorForStatus(error.status, `${error.detail}; the content is ${total} bytes long`, error.error_code);
}

/**
 * The Retry-After a still-limited caller should honour: the upstream's own, or else the next step
 * of the exponential backoff we were following (2^retries seconds, within our bound).
 */
function retryAfterHint(error: RequestError, settings: TransportSettings): number {
  const upstream = parseRetryAfter(error.response?.headers['retry-after']);
  if (upstream !== undefined) return upstream;
  return Math.min(settings.maxRetryAfterSeconds, 2 ** (error.request?.retryCount ?? settings.maxRetries));
}

function upstreamCode(error: RequestError, settings: UpstreamErrorSettings): string | undefined {
  if (error.cause instanceof UpstreamBodyFailure) return codeIn(error.cause.body, settings);
  return error.response ? codeIn(parseJson(error.response.body), settings) : undefined;
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
