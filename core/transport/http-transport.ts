import got, { type Got } from 'got';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { UpstreamError } from '../errors.ts';
import type { TransportSettings, UpstreamCall } from '../sdk/index.ts';
import { errorFromErrorBody, errorFromGot } from './upstream-errors.ts';

/** Statuses worth another attempt: rate limits always, upstream failures only for reads. */
const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];

export interface UpstreamRequest {
  call: UpstreamCall;
  params: Record<string, unknown>;
  idempotent: boolean;
}

/**
 * One connector instance's HTTP client: base URL, auth headers, timeouts and the retry policy of
 * DESIGN "Transport" (429 honours Retry-After up to a bound; 5xx and network errors are retried for
 * reads only, so a create/update is never replayed after an ambiguous failure).
 */
export class HttpTransport {
  private readonly client: Got;

  constructor(
    private readonly baseUrl: string,
    private readonly settings: TransportSettings,
    headers: Record<string, string>,
  ) {
    const agent = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
    this.client = got.extend({
      headers: { 'user-agent': 'plugboard', ...headers },
      agent,
      timeout: { request: settings.timeoutMs },
      retry: {
        limit: settings.maxRetries,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        statusCodes: RETRYABLE_STATUSES,
        maxRetryAfter: settings.maxRetryAfterSeconds * 1000,
        backoffLimit: 2_000,
        calculateDelay: ({ error, computedValue }) => {
          if (computedValue === 0) return 0;
          if (error.response?.statusCode === 429) return computedValue;
          return (error.options.context as { idempotent?: boolean }).idempotent ? computedValue : 0;
        },
      },
    });
  }

  /** Sends one upstream call and returns its parsed JSON body, or throws a typed error. */
  async requestJson(request: UpstreamRequest): Promise<unknown> {
    const { call, params, idempotent } = request;
    let text: string;
    try {
      text = await this.client(this.baseUrl + call.path, {
        method: call.method,
        context: { idempotent },
        ...encodeParams(call, params),
      }).text();
    } catch (error) {
      throw errorFromGot(error, this.settings.errors);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamError('Upstream answered with a body that is not JSON', 'upstream_invalid_json');
    }
    const { okField } = this.settings.errors;
    if (okField !== undefined && (body as Record<string, unknown> | null)?.[okField] === false) {
      throw errorFromErrorBody(body, this.settings.errors, 400);
    }
    return body;
  }
}

function encodeParams(call: UpstreamCall, params: Record<string, unknown>) {
  if (call.method === 'GET') return { searchParams: toSearchParams(params) };
  if (call.body === 'form') return { form: toSearchParams(params) };
  return { json: params };
}

function toSearchParams(params: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  return out;
}
