/**
 * The errors a manifest read raises, in Plugboard's error model: an upstream's FAIL keeps its status
 * where it is the caller's to see (a 4xx), becomes a 502 where it is the upstream's or the
 * credentials' (401, 403, 5xx), always names the upstream status (`upstream_http_<status>`) and says
 * the manifest's error message (or the CDK's default message for the status). Never the upstream's
 * body, URL or headers, which may carry credentials.
 */
import { errorForStatus, PlugboardError, RateLimitedError, UpstreamError } from '../../errors.ts';

/** The upstream refused the credentials (401/403, or a refused login or token refresh). A check reports it as such. */
export class UpstreamCredentialsRefusedError extends UpstreamError {
  constructor(
    detail: string,
    readonly upstreamStatus: number,
  ) {
    super(detail, `upstream_http_${upstreamStatus}`);
  }
}

/** A manifest that cannot be run as written (conflicting request options, a value of the wrong kind): 422. */
export class ManifestReadError extends PlugboardError {
  constructor(detail: string, errorCode = 'manifest_read_failed') {
    super(422, detail, errorCode);
  }
}

/** The typed error of an upstream answer the error handler resolved to FAIL. */
export function failedAnswerError(status: number, message: string): PlugboardError {
  const detail = `${message} (upstream status ${status})`;
  if (status === 401 || status === 403) return new UpstreamCredentialsRefusedError(detail, status);
  if (status === 429) return new RateLimitedError(detail, undefined, `upstream_http_${status}`);
  if (status >= 500 || status < 400) return new UpstreamError(detail, `upstream_http_${status}`);
  return errorForStatus(status, detail, `upstream_http_${status}`);
}

/**
 * Retries ran out, or the wait before the next one would be longer than the read allows (`waitSeconds`):
 * a 429 (with the wait as its Retry-After hint) when the upstream limits the rate, else a 502.
 */
export function retriesExhaustedError(status: number, message: string, rateLimited: boolean, retryAfterSeconds?: number, waitSeconds?: number): PlugboardError {
  const why = waitSeconds === undefined ? 'still failing after retries' : `the next retry would wait ${waitSeconds} s, longer than the read allows`;
  const detail = `${message.replace(/\.$/, '')} (upstream status ${status}): ${why}`;
  if (rateLimited) return new RateLimitedError(detail, retryAfterSeconds, `upstream_http_${status}`);
  return new UpstreamError(detail, `upstream_http_${status}`);
}
