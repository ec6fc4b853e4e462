import { HTTPError, RequestError, TimeoutError } from 'got';
import { errorForStatus, PlugboardError, RateLimitedError, UpstreamError } from '../errors.ts';
import type { UpstreamErrorSettings } from '../sdk/index.ts';
import { readPath } from './object-path.ts';

/**
 * Maps every way an upstream call can fail to one typed error. Only upstream codes and statuses reach
 * the caller: never the upstream URL, headers or body, which could carry credentials.
 */
export function errorFromErrorBody(body: unknown, settings: UpstreamErrorSettings, fallbackStatus: number): PlugboardError {
  const code = readPath(body, settings.codePath);
  const errorCode = typeof code === 'string' && code !== '' ? code : undefined;
  const status = (errorCode && settings.statusByCode[errorCode]) || fallbackStatus;
  const detail = describeFailure(body, settings, errorCode, fallbackStatus);
  if (status === 429) return new RateLimitedError(detail, undefined, errorCode);
  return errorForStatus(status, detail, errorCode);
}

export function errorFromGot(error: unknown, settings: UpstreamErrorSettings): PlugboardError {
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    if (status === 429) {
      const retryAfter = parseRetryAfter(error.response.headers['retry-after']);
      return new RateLimitedError('Upstream rate limit still in force after retries', retryAfter, codeOf(error, settings) ?? 'rate_limited');
    }
    return errorFromErrorBody(parseJson(error.response.body), settings, statusForUpstreamStatus(status));
  }
  if (error instanceof TimeoutError) return new UpstreamError('Upstream request timed out', 'upstream_timeout');
  if (error instanceof RequestError) return new UpstreamError('Upstream request failed: network error', error.code ? `upstream_${error.code.toLowerCase()}` : 'upstream_unreachable');
  if (error instanceof PlugboardError) return error;
  return new UpstreamError('Upstream request failed', 'upstream_error');
}

function describeFailure(body: unknown, settings: UpstreamErrorSettings, errorCode: string | undefined, status: number): string {
  if (errorCode && settings.detailByCode?.[errorCode]) return settings.detailByCode[errorCode];
  if (!errorCode) return `Upstream request failed with status ${status}`;
  const message = settings.messagePath === undefined ? undefined : readPath(body, settings.messagePath);
  return typeof message === 'string' && message !== '' ? `Upstream rejected the request: ${errorCode} (${message})` : `Upstream rejected the request: ${errorCode}`;
}

/** A 4xx upstream status keeps its meaning unless it is about our credentials; 5xx is the upstream's fault. */
function statusForUpstreamStatus(status: number): number {
  if (status === 401 || status === 403 || status >= 500) return 502;
  return status;
}

function codeOf(error: HTTPError, settings: UpstreamErrorSettings): string | undefined {
  const code = readPath(parseJson(error.response.body), settings.codePath);
  return typeof code === 'string' ? code : undefined;
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
