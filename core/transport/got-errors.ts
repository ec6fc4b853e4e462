import { HTTPError, ParseError, RequestError, TimeoutError } from 'got';
import { PlugboardError, UpstreamError } from '../errors.ts';
import type { TransportSettings } from '../sdk/index.ts';
import { errorFromAnswer, type UpstreamAnswer } from './upstream-errors.ts';

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
 * The upstream's failed answer inside one of got's errors: an error status (HTTPError), or a success
 * body that reported a failure (UpstreamBodyFailure, thrown from the afterResponse hook). Undefined
 * when the upstream gave none: a network failure, a timeout, a body that is not JSON.
 */
export function answerOf(error: unknown): UpstreamAnswer | undefined {
  if (!(error instanceof RequestError) || !error.response) return undefined;
  const inSuccessBody = error.cause instanceof UpstreamBodyFailure;
  if (!inSuccessBody && !(error instanceof HTTPError)) return undefined;
  const { response } = error;
  return {
    status: response.statusCode,
    // The success body as got parsed it, or the error response's body parsed here.
    body: error.cause instanceof UpstreamBodyFailure ? error.cause.body : parseJson(response.body),
    inSuccessBody,
    retryAfter: response.headers['retry-after'],
    contentRange: response.headers['content-range'],
    retries: error.request?.retryCount,
  };
}

/** Where the calls went, for errors that got no answer: the API root's origin and what sets it. */
export interface UpstreamWhere {
  baseUrl: string;
  /** What sets the API root (`PLUGBOARD_CHAT_BASE_URL`, `base_url`), so a wrong one can be fixed. */
  setting?: string;
}

/** Maps every way a call through got can fail to one typed error. */
export function errorFromGot(error: unknown, settings: TransportSettings, where?: UpstreamWhere): PlugboardError {
  const answer = answerOf(error);
  if (answer) return errorFromAnswer(answer, settings);
  // A connection the egress policy refused: its own error, not a network failure of the upstream.
  if (error instanceof RequestError && error.cause instanceof PlugboardError) return error.cause;
  if (error instanceof TimeoutError) return new UpstreamError(`Upstream request${to(where)} timed out${setBy(where)}`, 'upstream_timeout');
  if (error instanceof ParseError) return new UpstreamError('Upstream answered with a body that is not JSON', 'upstream_invalid_json');
  if (error instanceof RequestError) {
    const code = error.code ? ` (${error.code})` : '';
    return new UpstreamError(
      `Upstream request${to(where)} failed: network error${code}${setBy(where)}`,
      error.code ? `upstream_${error.code.toLowerCase()}` : 'upstream_unreachable',
    );
  }
  if (error instanceof PlugboardError) return error;
  return new UpstreamError('Upstream request failed', 'upstream_error');
}

/** The origin only: a path or query could carry what the caller put there. */
function to(where: UpstreamWhere | undefined): string {
  if (!where) return '';
  try {
    return ` to ${new URL(where.baseUrl).origin}`;
  } catch {
    return '';
  }
}

function setBy(where: UpstreamWhere | undefined): string {
  return where?.setting ? `; the API root is set by ${where.setting}` : '';
}

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}
