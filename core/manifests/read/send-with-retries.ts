/**
 * Sends one request as the CDK's HttpClient does, mapped onto Plugboard's retry and error model: the
 * manifest's error handler resolves each answer; SUCCESS and IGNORE come back, FAIL is a typed error,
 * RETRY and RATE_LIMITED wait (the first backoff strategy's time, else the CDK's exponential 5 s, 10 s,
 * 20 s...) and try again, up to `max_retries`. Each wait is bounded by the read's limit (a longer wait
 * the upstream asks for fails at once, as Plugboard's transport fails a long Retry-After) and all of
 * them together by the CDK's ten minutes.
 */
import { RequestError, TimeoutError } from 'got';
import { setTimeout as sleep } from 'node:timers/promises';
import { PlugboardError, UpstreamError } from '../../errors.ts';
import { type ErrorHandlerRuntime, NETWORK_FAILURE, type Resolution } from './error-handler.ts';
import { headerValue, type HttpSettings, isNetworkFailure, type OutgoingRequest, sendOnce, type UpstreamResponse } from './http-client.ts';
import { failedAnswerError, ManifestReadError, retriesExhaustedError } from './read-errors.ts';

export interface RetrySettings {
  http: HttpSettings;
  /** The longest single wait (seconds). */
  maxWaitSeconds: number;
  /** The longest time spent retrying one request (seconds). */
  maxRetrySeconds: number;
  /** Called before every wait, with the seconds (tests and logs). */
  onRetry?: (seconds: number, resolution: Resolution) => void;
}

/** An answer to read: a success, or one the error handler said to IGNORE. */
export interface Answer {
  response: UpstreamResponse;
  ignored: boolean;
}

/** What the request hooks of a send may do: an authenticator renews its token before a REFRESH_TOKEN_THEN_RETRY. */
export interface SendHooks {
  refreshCredentials?: () => void;
}

const DEFAULT_BACKOFF_FACTOR_SECONDS = 5;

/** `prepare` builds the request for each attempt, so a renewed token or session goes with the retry. */
export async function sendWithRetries(
  prepare: () => Promise<OutgoingRequest>,
  handler: ErrorHandlerRuntime,
  settings: RetrySettings,
  hooks: SendHooks = {},
): Promise<Answer> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const request = await prepare();
    let response: UpstreamResponse | undefined;
    let failure: unknown;
    let resolution: Resolution;
    try {
      response = await sendOnce(request, settings.http);
      resolution = handler.interpret(response);
    } catch (error) {
      if (settings.http.signal?.aborted) throw settings.http.signal.reason ?? error;
      if (!isNetworkFailure(error)) throw requestFailure(error);
      failure = error;
      resolution = NETWORK_FAILURE;
    }
    switch (resolution.action) {
      case 'SUCCESS':
        return { response: response!, ignored: false };
      case 'IGNORE':
        return { response: response!, ignored: true };
      case 'FAIL':
        throw response ? failedAnswerError(response.status, resolution.message) : requestFailure(failure);
      case 'RESET_PAGINATION':
        throw new ManifestReadError('The error handler asked to RESET_PAGINATION, which Plugboard does not run yet', 'manifest_unsupported_action');
      case 'REFRESH_TOKEN_THEN_RETRY':
        hooks.refreshCredentials?.();
        break;
    }
    const rateLimited = resolution.action === 'RATE_LIMITED' || response?.status === 429;
    const retryAfter = response ? retryAfterSeconds(response) : undefined;
    const giveUp = (hint: number | undefined, wait?: number) =>
      response ? retriesExhaustedError(response.status, resolution.message, rateLimited, hint, wait) : requestFailure(failure);
    if (attempt > handler.maxRetries) throw giveUp(retryAfter);
    const asked = handler.backoffSeconds(response, attempt);
    let wait: number;
    if (asked === undefined) wait = Math.min(DEFAULT_BACKOFF_FACTOR_SECONDS * 2 ** (attempt - 1), settings.maxWaitSeconds);
    else if (asked > settings.maxWaitSeconds) throw giveUp(Math.ceil(asked), asked);
    else wait = asked;
    // The CDK's max_time: all the retries of one request within ten minutes (the read's bound).
    if ((Date.now() - started) / 1000 + wait > settings.maxRetrySeconds) throw giveUp(retryAfter);
    settings.onRetry?.(wait, resolution);
    await sleep(wait * 1000, undefined, settings.http.signal ? { signal: settings.http.signal } : {});
  }
}

function retryAfterSeconds(response: UpstreamResponse): number | undefined {
  const header = headerValue(response.headers, 'retry-after');
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : undefined;
}

/** A failure of sendOnce that is not an upstream answer, as Plugboard's errors say it (as the transport's got-errors.ts does). */
export function requestFailure(error: unknown): PlugboardError {
  if (error instanceof PlugboardError) return error;
  if (error instanceof RequestError && error.cause instanceof PlugboardError) return error.cause;
  if (error instanceof TimeoutError) return new UpstreamError('Upstream request timed out', 'upstream_timeout');
  if (error instanceof RequestError)
    return new UpstreamError('Upstream request failed: network error', error.code ? `upstream_${error.code.toLowerCase()}` : 'upstream_unreachable');
  return new UpstreamError('Upstream request failed', 'upstream_error');
}
