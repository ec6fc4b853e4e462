/**
 * What an upstream failure means to our callers, worked out from the upstream's answer alone, so it
 * holds whatever HTTP client made the call (got-errors.ts reads the answer off got's errors).
 */
import { errorForStatus, type PlugboardError, RateLimitedError } from '../errors.ts';
import type { TransportSettings, UpstreamErrorSettings } from '../sdk/index.ts';
import { readPath } from './object-path.ts';

/** An upstream's failed answer: an error status, or a success whose body reported a failure. */
export interface UpstreamAnswer {
  status: number;
  /** The body as JSON; undefined when it is none. */
  body: unknown;
  /** A success (2xx) whose body reported the failure (the connector's `failureInBody`). */
  inSuccessBody: boolean;
  /** Its Retry-After and Content-Range headers. */
  retryAfter?: string;
  contentRange?: string;
  /** Retries made before this answer, when known. */
  retries?: number;
}

/**
 * The most got waits between two attempts, in ms (its `retry.backoffLimit`): the exponential backoff
 * runs 1 s, 2 s, then stays at this bound. A still-limited caller's Retry-After hint follows it too.
 */
export const BACKOFF_LIMIT_MS = 2_000;

/** How an upstream failure is retried: `rate_limit` always, `transient` on reads only, `final` never. */
type FailureKind = 'rate_limit' | 'transient' | 'final';

/**
 * How a failure is retried. `answer` is the upstream's failed answer; undefined for a network
 * failure, a timeout or a body cut short, which are all passing.
 */
export function failureKind(answer: UpstreamAnswer | undefined, settings: UpstreamErrorSettings): FailureKind {
  return answer === undefined ? 'transient' : kindOf(answer, upstreamCode(answer, settings), settings);
}

/** `failureKind` of an answer whose code was already read (read once per failure). */
function kindOf(answer: UpstreamAnswer, code: string | undefined, settings: UpstreamErrorSettings): FailureKind {
  if (answer.status === 429 || (code !== undefined && settings.rateLimitCodes?.includes(code))) return 'rate_limit';
  if (code !== undefined && settings.transientCodes?.includes(code)) return 'transient';
  if (answer.inSuccessBody) return 'final';
  // A 4xx answer is only ever offered for a retry because it might have carried a rate-limit code.
  return answer.status < 500 ? 'final' : 'transient';
}

/** `code` is `upstreamCode`'s; `detailSuffix` is appended to the detail (a 416's content length). */
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
 * The typed error for an upstream's failed answer. Only upstream codes and statuses reach the
 * caller: never the upstream URL, headers or body, which could carry credentials. A declared
 * rate-limit code is a 429 by declaration; `statusByCode` need not repeat it.
 */
export function errorFromAnswer(answer: UpstreamAnswer, settings: TransportSettings): PlugboardError {
  const { errors } = settings;
  const code = upstreamCode(answer, errors);
  if (kindOf(answer, code, errors) === 'rate_limit') {
    return new RateLimitedError('Upstream rate limit still in force after retries', retryAfterHint(answer, settings), code ?? 'rate_limited');
  }
  // A code in a success body that nobody listed is the caller's mistake until shown otherwise (400).
  const fallbackStatus = answer.inSuccessBody ? 400 : statusForUpstreamStatus(answer.status);
  const rangeTotal = answer.status === 416 ? rangeTotalSuffix(answer.contentRange) : '';
  return errorFromErrorBody(answer.body, code, errors, answer.status, fallbackStatus, rangeTotal);
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
function retryAfterHint(answer: UpstreamAnswer, settings: TransportSettings): number {
  const upstream = parseRetryAfter(answer.retryAfter);
  if (upstream !== undefined) return upstream;
  const backoff = Math.min(2 ** (answer.retries ?? settings.maxRetries), Math.ceil(BACKOFF_LIMIT_MS / 1000));
  return Math.min(settings.maxRetryAfterSeconds, backoff);
}

/** The upstream's error code in its answer's body, where the connector's `codePath` says. */
export function upstreamCode(answer: UpstreamAnswer, settings: UpstreamErrorSettings): string | undefined {
  const code = readPath(answer.body, settings.codePath);
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function parseRetryAfter(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
