import got, { type Got, type PlainResponse, type Request as GotStream } from 'got';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { UpstreamError } from '../errors.ts';
import type { TransportSettings, UpstreamCall } from '../sdk/index.ts';
import { errorFromErrorBody, errorFromGot } from './upstream-errors.ts';
import { encodeRequest } from './request-encoding.ts';
import { truncationGuarded } from './guarded-body.ts';

/** Keep-alive sockets shared by every connector instance: instances are cheap, connections are not. */
const SHARED_AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

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
    this.client = got.extend({
      headers: { 'user-agent': 'plugboard', ...headers },
      agent: SHARED_AGENTS,
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
    const { url, ...options } = encodeRequest(this.baseUrl, request.call, request.params);
    let text: string;
    try {
      text = await this.client(url, { ...options, context: { idempotent: request.idempotent } }).text();
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

  /**
   * Opens a streamed download. Resolves once the upstream answered with a success status (after the
   * same retries as a read); the body is then consumed chunk by chunk, never buffered whole, and a
   * body shorter than its Content-Length fails the iteration instead of ending quietly.
   */
  async requestStream(request: UpstreamRequest): Promise<UpstreamStream> {
    const { url, ...options } = encodeRequest(this.baseUrl, request.call, request.params);
    const { stream, response } = await new Promise<{ stream: GotStream; response: PlainResponse }>((resolve, reject) => {
      const attach = (stream: GotStream) => {
        stream.once('response', (response: PlainResponse) => resolve({ stream, response }));
        stream.once('error', reject);
        // got computes the delay with our retry policy, then hands over a fresh stream to continue with.
        stream.once('retry', (_count: number, _error: unknown, createRetryStream: () => GotStream) => {
          stream.off('error', reject);
          attach(createRetryStream());
        });
      };
      attach(this.client.stream(url, { ...options, context: { idempotent: true } }));
    }).catch((error: unknown) => {
      throw errorFromGot(error, this.settings.errors);
    });
    return { status: response.statusCode, headers: response.headers, body: truncationGuarded(stream) };
  }
}

export interface UpstreamStream {
  status: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Uint8Array>;
}
