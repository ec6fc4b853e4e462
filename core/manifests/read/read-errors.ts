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

/** Retries ran out (or the wait asked for is longer than the read allows). */
export function retriesExhaustedError(status: number | undefined, message: string, rateLimited: boolean, retryAfterSeconds?: number): PlugboardError {
  if (rateLimited)
    return new RateLimitedError(
      `${message}: the upstream still limits the rate after retries`,
      retryAfterSeconds,
      status ? `upstream_http_${status}` : 'rate_limited',
    );
  const code = status === undefined ? 'upstream_unreachable' : `upstream_http_${status}`;
  return new UpstreamError(`${message}: still failing after retries${status === undefined ? '' : ` (upstream status ${status})`}`, code);
}
