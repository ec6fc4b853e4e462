import got, { type Method, RequestError } from 'got';
import type { ApiPage, ApiTokenResponse } from '../api-types.ts';
import type { CloudClientConfig } from '../config.ts';
import { apiErrorOf, CloudApiError, CloudError, MissingResourceError } from '../errors.ts';
import { AccessToken } from './access-token.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** `public` (default): relative to apiRoot; `config`: relative to the config API's root. */
  api?: 'public' | 'config';
  /** What a 404 means: this resource is missing (a MissingResourceError rather than a CloudApiError). */
  resource?: { type: string; id: string };
}

export interface ApiClientOptions {
  /** Per request, in milliseconds (default 60 s). */
  timeoutMs?: number;
}

/** The largest page the public API serves. */
const PAGE_SIZE = 100;

/**
 * Reads (and idempotent writes) are tried again on a rate limit or an unavailable server, honouring
 * Retry-After up to a minute; a create (POST) is never replayed, as its first try may have landed.
 */
const RETRY = {
  limit: 2,
  methods: ['GET', 'PUT', 'DELETE'] as Method[],
  statusCodes: [429, 502, 503, 504],
  errorCodes: ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'],
  maxRetryAfter: 60_000,
};

/** What a request answered: its status and body text. */
interface Answer {
  status: number;
  text: string;
}

/**
 * The one place requests are made: it adds the bearer token (renewed once when a 401 says it went
 * stale), sends and reads JSON, and turns failures into CloudApiError (or MissingResourceError).
 */
export class ApiClient {
  readonly #token: AccessToken;
  readonly #timeoutMs: number;

  constructor(
    readonly config: CloudClientConfig,
    options: ApiClientOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#token = new AccessToken(config, (clientId, clientSecret) => this.fetchToken(clientId, clientSecret));
  }

  get<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  patch<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<void> {
    return this.request<void>('DELETE', path, options);
  }

  /** A config API call: always a POST with a JSON body; `path` is relative to the config API's root (`.../api/v1`), as `/jobs/get`. */
  configPost<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body' | 'api'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body, api: 'config' });
  }

  /** Every item of a paged list, page after page (by offset: `next` links name the server's public URL, which may not be ours). */
  async getAll<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T[]> {
    const items: T[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const page = await this.get<ApiPage<T>>(path, { query: { ...query, limit: PAGE_SIZE, offset } });
      items.push(...page.data);
      if (!page.next || page.data.length === 0) return items;
    }
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, options);
    let token = await this.#token.get();
    let answer = await this.send(method, url, token, options.body);
    if (answer.status === 401 && this.#token.renewable) {
      token = await this.#token.renew(token);
      answer = await this.send(method, url, token, options.body);
    }
    if (answer.status >= 400) {
      const error = apiErrorOf(answer.status, method, url, parseBody(answer.text));
      if (answer.status === 404 && options.resource) {
        throw new MissingResourceError(options.resource.type, options.resource.id, undefined, { cause: error });
      }
      throw error;
    }
    return parseBody(answer.text) as T;
  }

  private url(path: string, options: RequestOptions): string {
    const root = options.api === 'config' ? this.config.configApiRoot : this.config.apiRoot;
    const url = new URL(`${root}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) url.searchParams.set(name, value.join(','));
      else url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private async send(method: HttpMethod, url: string, token: string | undefined, body: unknown): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    try {
      const response = await got(url, {
        method,
        headers,
        ...(body === undefined ? {} : { json: body }),
        throwHttpErrors: false,
        retry: RETRY,
        timeout: { request: this.#timeoutMs },
      });
      return { status: response.statusCode, text: response.body };
    } catch (cause) {
      // A timeout or a refused connection; the request (and its token) is not in the message.
      const reason = cause instanceof RequestError ? `${cause.code}: ${cause.message}` : String(cause);
      throw new CloudError(`${method} ${url} failed: ${reason}`, { cause });
    }
  }

  private async fetchToken(clientId: string, clientSecret: string): Promise<ApiTokenResponse> {
    const url = `${this.config.apiRoot}/applications/token`;
    const answer = await this.send('POST', url, undefined, { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' });
    if (answer.status >= 400) throw new CloudApiError(answer.status, 'POST', url, parseBody(answer.text));
    return parseBody(answer.text) as ApiTokenResponse;
  }
}

/** JSON when it parses (the JSON boundary), the text otherwise, undefined when empty. */
function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
