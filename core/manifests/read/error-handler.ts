/**
 * What an upstream answer means, as the CDK's error handlers decide it: a DefaultErrorHandler asks its
 * HttpResponseFilters in order (a status in `http_codes`, a `predicate` on the body and headers, or
 * `error_message_contains` in the answer's error message; the first match wins), then falls back to the
 * CDK's default mapping by status; a CompositeErrorHandler asks its handlers in turn and takes the first
 * SUCCESS, RETRY, IGNORE or RESET_PAGINATION, else the last answer. The waits between retries are the
 * backoff strategies' (backoff.ts).
 */
import type { CompositeErrorHandler, DefaultErrorHandler, ErrorHandler, HttpResponseFilter, ResponseAction } from '../model.ts';
import { type BackoffStrategyRuntime, backoffStrategy } from './backoff.ts';
import { caseInsensitiveHeaders, type UpstreamResponse } from './http-client.ts';
import { decodeJsonOrEmpty } from './json-decoder.ts';
import type { Templates } from './templates.ts';

export type FailureType = 'system_error' | 'config_error' | 'transient_error';

export interface Resolution {
  action: ResponseAction;
  failureType: FailureType;
  message: string;
}

/** The CDK's DEFAULT_ERROR_MAPPING. */
const DEFAULT_MAPPING: Readonly<Record<number, Resolution>> = {
  400: { action: 'FAIL', failureType: 'system_error', message: 'Bad request. Please check your request parameters.' },
  401: { action: 'FAIL', failureType: 'config_error', message: 'Unauthorized. Please ensure you are authenticated correctly.' },
  403: { action: 'FAIL', failureType: 'config_error', message: "Forbidden. You don't have permission to access this resource." },
  404: { action: 'FAIL', failureType: 'system_error', message: 'Not found. The requested resource was not found on the server.' },
  405: { action: 'FAIL', failureType: 'system_error', message: 'Method not allowed. Please check your request method.' },
  408: { action: 'RETRY', failureType: 'transient_error', message: 'Request timeout.' },
  429: { action: 'RATE_LIMITED', failureType: 'transient_error', message: 'Too many requests.' },
  500: { action: 'RETRY', failureType: 'transient_error', message: 'Internal server error.' },
  502: { action: 'RETRY', failureType: 'transient_error', message: 'Bad gateway.' },
  503: { action: 'RETRY', failureType: 'transient_error', message: 'Service unavailable.' },
  504: { action: 'RETRY', failureType: 'transient_error', message: 'Gateway timeout.' },
};

const SUCCESS: Resolution = { action: 'SUCCESS', failureType: 'system_error', message: '' };
/** A network failure or a timeout: the CDK retries a RequestException. */
export const NETWORK_FAILURE: Resolution = { action: 'RETRY', failureType: 'transient_error', message: 'An exception occurred when making the request.' };

function defaultResolution(status: number): Resolution {
  return DEFAULT_MAPPING[status] ?? { action: 'RETRY', failureType: 'system_error', message: `Unexpected response with HTTP status ${status}` };
}

/** An error handler ready to run: its resolution of an answer, its retry count and its waits. */
export interface ErrorHandlerRuntime {
  interpret(response: UpstreamResponse): Resolution;
  maxRetries: number;
  /** The first strategy's wait that is not empty, in seconds; undefined: the default exponential backoff. */
  backoffSeconds(response: UpstreamResponse | undefined, attempt: number): number | undefined;
}

export function errorHandlerRuntime(component: ErrorHandler | undefined, templates: Templates, config: unknown, clock: () => number): ErrorHandlerRuntime {
  const handler = component ?? ({ type: 'DefaultErrorHandler' } as DefaultErrorHandler);
  const strategies = collectStrategies(handler).map((strategy) => backoffStrategy(strategy, templates, config, clock));
  return {
    interpret: (response) => interpretWith(handler, response, templates, config),
    maxRetries: maxRetriesOf(handler, templates, config),
    backoffSeconds: (response, attempt) => firstWait(strategies, response, attempt),
  };
}

function firstWait(strategies: BackoffStrategyRuntime[], response: UpstreamResponse | undefined, attempt: number): number | undefined {
  for (const strategy of strategies) {
    const wait = strategy(response, attempt);
    if (wait !== undefined && wait > 0) return wait;
  }
  return undefined;
}

function collectStrategies(handler: ErrorHandler): NonNullable<DefaultErrorHandler['backoff_strategies']> {
  if (handler.type === 'CompositeErrorHandler') return handler.error_handlers.flatMap(collectStrategies);
  return handler.backoff_strategies ?? [];
}

/** A composite's retry count is its first handler's; the CDK's default is 5. */
function maxRetriesOf(handler: ErrorHandler, templates: Templates, config: unknown): number {
  if (handler.type === 'CompositeErrorHandler') {
    const first = handler.error_handlers[0];
    return first ? maxRetriesOf(first, templates, config) : 5;
  }
  if (handler.max_retries === undefined || handler.max_retries === null) return 5;
  return Math.max(0, Math.trunc(templates.number(handler.max_retries, { config, parameters: handler.$parameters ?? {} }, 'max_retries')));
}

function interpretWith(handler: ErrorHandler, response: UpstreamResponse, templates: Templates, config: unknown): Resolution {
  if (handler.type === 'CompositeErrorHandler') return interpretComposite(handler, response, templates, config);
  for (const filter of handler.response_filters ?? []) {
    const matched = matchFilter(filter, response, templates, config);
    if (matched) return matched;
  }
  if (response.ok) return SUCCESS;
  return defaultResolution(response.status);
}

function interpretComposite(handler: CompositeErrorHandler, response: UpstreamResponse, templates: Templates, config: unknown): Resolution {
  let last: Resolution | undefined;
  for (const inner of handler.error_handlers) {
    last = interpretWith(inner, response, templates, config);
    if (last.action === 'SUCCESS' || last.action === 'RETRY' || last.action === 'IGNORE' || last.action === 'RESET_PAGINATION') return last;
  }
  return last ?? (response.ok ? SUCCESS : defaultResolution(response.status));
}

/** The CDK's HttpResponseFilter.matches: a filter without an action matches nothing. */
function matchFilter(filter: HttpResponseFilter, response: UpstreamResponse, templates: Templates, config: unknown): Resolution | undefined {
  if (!filter.action) return undefined;
  const parameters = filter.$parameters ?? {};
  const body = () => decodeJsonOrEmpty(response.body);
  const headers = caseInsensitiveHeaders(response.headers);
  const matches =
    (filter.http_codes ?? []).includes(response.status) ||
    (typeof filter.predicate === 'string' &&
      filter.predicate !== '' &&
      templates.boolean(filter.predicate, { config: null, parameters, response: body(), headers })) ||
    (typeof filter.error_message_contains === 'string' &&
      filter.error_message_contains !== '' &&
      (errorMessageOf(response) ?? '').includes(filter.error_message_contains));
  if (!matches) return undefined;
  const fallback = DEFAULT_MAPPING[response.status];
  let message = '';
  if (typeof filter.error_message === 'string' && filter.error_message !== '') {
    const evaluated = templates.string(filter.error_message, { config, parameters, response: body(), headers });
    message = evaluated === null || evaluated === undefined ? '' : String(evaluated);
  }
  const failureType: FailureType = filter.failure_type && filter.action === 'FAIL' ? filter.failure_type : (fallback?.failureType ?? 'system_error');
  return { action: filter.action, failureType, message: message || fallback?.message || '' };
}

const MESSAGE_KEYS = ['message', 'messages', 'error', 'errors', 'failures', 'failure', 'detail', 'err', 'error_message', 'msg', 'reason', 'status_message'];

/** The CDK's JsonErrorMessageParser: the first message-like field of a JSON body, lists joined by ", "; the text of a body that is not JSON. */
export function errorMessageOf(response: UpstreamResponse): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return response.body.toString('utf8');
  }
  const find = (value: unknown, depth: number): string | undefined => {
    if (depth > 16) return undefined;
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) {
      return value
        .map((item) => find(item, depth + 1))
        .filter((item) => item !== undefined)
        .join(', ');
    }
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key of MESSAGE_KEYS) if (isTruthy(record[key])) return find(record[key], depth + 1);
    }
    return undefined;
  };
  return find(body, 0);
}

function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}
