import got, { type Delays, type Got, type PlainResponse, type Request as GotStream } from 'got';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { UpstreamError } from '../errors.ts';
import type { TransportSettings, UpstreamCall } from '../sdk/index.ts';
import { answerOf, errorFromGot, UpstreamBodyFailure } from './got-errors.ts';
import { BACKOFF_LIMIT_MS, failureKind, type UpstreamAnswer } from './upstream-errors.ts';
import type { RefreshingAccessToken } from '../oauth/refreshing-access-token.ts';
import { encodeRequest } from './request-encoding.ts';
import { announcedBodyBytes, truncationGuarded } from './guarded-body.ts';
import type { EgressPolicy } from '../security/egress/egress-policy.ts';
import { sharedEgressAgents } from '../security/egress/egress-agents.ts';

/** Keep-alive sockets shared by every connector instance: instances are cheap, connections are not. */
const SHARED_AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function agentsFor(egress: EgressPolicy | undefined): typeof SHARED_AGENTS {
  return egress ? sharedEgressAgents(egress) : SHARED_AGENTS;
}

/** Statuses worth another attempt: rate limits always, upstream failures only for reads. */
const RETRYABLE_STATUSES = [429, 500, 502, 503, 504];

/**
 * A connector that declares rate-limit codes may get them on any client-error status (Drive: 403
 * `userRateLimitExceeded`). got offers a retry only for listed statuses; `failureKind` then keeps
 * the offer for a rate-limit code alone, so any other 4xx still fails at once.
 */
const CLIENT_ERROR_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i);

/** The statuses offered for a retry when a connector declares rate-limit codes (computed once). */
const RATE_LIMIT_CODE_STATUSES = [...new Set([...RETRYABLE_STATUSES, ...CLIENT_ERROR_STATUSES])];

/** An instance whose access token is renewed: the header it travels in, and how an expired one is told. */
export interface RefreshingAuth {
  header: string;
  headerValue(token: string): string;
  token: RefreshingAccessToken;
  /** Whether an upstream's failed answer says the access token expired (the connector's `auth.oauth2.expiredToken`). */
  isExpired(answer: UpstreamAnswer): boolean;
}

export interface UpstreamRequest {
  call: UpstreamCall;
  params: Record<string, unknown>;
  idempotent: boolean;
}

/**
 * One connector instance's HTTP client: base URL, auth headers, timeouts and the retry policy (a
 * rate limit honours Retry-After up to a bound, or backs off exponentially; 5xx, network errors and
 * declared transient codes are retried for reads only, so a create/update is never replayed after an
 * ambiguous failure).
 */
export class HttpTransport {
  private readonly client: Got;
  /**
   * A download's body has no total bound (`request` cleared): a large file or a slow reader may
   * rightly take hours. Each step up to the response head is bounded, then (`socket`) the silence
   * between two chunks.
   */
  private readonly streamTimeouts: Delays;

  constructor(
    private readonly baseUrl: string,
    private readonly settings: TransportSettings,
    headers: Record<string, string>,
    /** The network policy its connections obey (a tenant-supplied base URL); none for the caller's own. */
    egress?: EgressPolicy,
    /** A renewed access token, sent with each request in place of a fixed auth header. */
    private readonly refreshing?: RefreshingAuth,
    /** What sets the base URL, named when no answer came (`PLUGBOARD_CHAT_BASE_URL` hosted, `base_url` in-process). */
    private readonly baseUrlSetting?: string,
  ) {
    const { errors, timeoutMs } = settings;
    this.streamTimeouts = {
      request: undefined,
      lookup: timeoutMs,
      connect: timeoutMs,
      secureConnect: timeoutMs,
      send: timeoutMs,
      response: timeoutMs,
      socket: settings.streamIdleTimeoutMs ?? timeoutMs,
    };
    this.client = got.extend({
      headers: { 'user-agent': 'plugboard', ...headers },
      agent: agentsFor(egress),
      timeout: { request: timeoutMs },
      retry: {
        limit: settings.maxRetries,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        statusCodes: errors.rateLimitCodes?.length ? RATE_LIMIT_CODE_STATUSES : RETRYABLE_STATUSES,
        errorCodes: [...(got.defaults.options.retry.errorCodes ?? []), UpstreamBodyFailure.CODE],
        maxRetryAfter: settings.maxRetryAfterSeconds * 1000,
        backoffLimit: BACKOFF_LIMIT_MS,
        calculateDelay: ({ error, computedValue }) => {
          // got's rules first: attempts left, a retryable status or error code, a Retry-After within our bound.
          if (computedValue === 0) return 0;
          const kind = failureKind(answerOf(error), errors);
          if (kind === 'rate_limit') return computedValue;
          if (kind === 'final') return 0;
          return (error.options.context as { idempotent?: boolean }).idempotent ? computedValue : 0;
        },
      },
      hooks: {
        // got drops `authorization` only when the host or port changes: any other origin (http after https
        // included) gets none of the instance's auth headers, whatever their names.
        beforeRedirect: [
          (redirected) => {
            if (redirected.url === undefined || new URL(redirected.url).origin === new URL(baseUrl).origin) return;
            for (const name of [...Object.keys(headers), ...(refreshing ? [refreshing.header] : [])]) delete redirected.headers[name.toLowerCase()];
          },
        ],
        afterResponse:
          errors.failureInBody === undefined
            ? []
            : [
                (response) => {
                  // An upstream that answers failures with 200 (Slack's ok:false): hand the body to the
                  // retry policy as a failure, so transient and rate-limit codes are retried as declared.
                  // got runs this hook before its own status check: an error status keeps the HTTPError
                  // path (5xx retried for reads, 502 after), whatever its body says.
                  if (response.statusCode < 200 || response.statusCode > 299) return response;
                  if (errors.failureInBody?.(response.body)) throw new UpstreamBodyFailure(response.body);
                  return response;
                },
              ],
      },
    });
  }

  /** Sends one upstream call and returns its parsed JSON body, or throws a typed error. */
  async requestJson(request: UpstreamRequest): Promise<unknown> {
    const { url, ...options } = encodeRequest(this.baseUrl, request.call, request.params);
    let body: unknown;
    try {
      // Parsed once by got, so the afterResponse hook and the caller see the same object.
      body = await this.withAccessToken((auth) =>
        this.client(url, {
          ...options,
          headers: { ...options.headers, ...auth },
          responseType: 'json',
          resolveBodyOnly: true,
          context: { idempotent: request.idempotent },
        }),
      );
    } catch (error) {
      throw errorFromGot(error, this.settings, { baseUrl: this.baseUrl, ...(this.baseUrlSetting ? { setting: this.baseUrlSetting } : {}) });
    }
    // got answers an empty body as '' rather than failing to parse it.
    if (body === '') throw new UpstreamError('Upstream answered with a body that is not JSON', 'upstream_invalid_json');
    return body;
  }

  /**
   * Opens a streamed download. Resolves once the upstream answered with a success status (after the
   * same retries as a read); the body is then consumed chunk by chunk, never buffered whole, and a
   * body that stops short (cut, or silent past the idle timeout) fails the iteration instead of
   * ending quietly.
   */
  async requestStream(request: UpstreamRequest): Promise<UpstreamStream> {
    const { url, ...options } = encodeRequest(this.baseUrl, request.call, request.params);
    const open = (auth: Record<string, string>) =>
      new Promise<{ stream: GotStream; response: PlainResponse }>((resolve, reject) => {
        const attach = (stream: GotStream) => {
          // got computes the delay with our retry policy, then hands over a fresh stream to continue with.
          const onRetry = (_count: number, _error: unknown, createRetryStream: () => GotStream) => {
            stream.off('error', reject);
            attach(createRetryStream());
          };
          stream.once('retry', onRetry);
          stream.once('error', reject);
          stream.once('response', (response: PlainResponse) => {
            // From here the caller reads this body. Without a retry listener got fails the stream on a
            // mid-body error, at once; with one it would wait, then replay the whole download into a
            // stream nobody reads, holding a socket while the caller's error arrives late.
            stream.off('retry', onRetry);
            resolve({ stream, response });
          });
        };
        attach(this.client.stream(url, { ...options, headers: { ...options.headers, ...auth }, timeout: this.streamTimeouts, context: { idempotent: true } }));
      });
    const { stream, response } = await this.withAccessToken(open).catch((error: unknown) => {
      throw errorFromGot(error, this.settings, { baseUrl: this.baseUrl, ...(this.baseUrlSetting ? { setting: this.baseUrlSetting } : {}) });
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: truncationGuarded(stream, announcedBodyBytes(response.statusCode, response.headers)),
    };
  }

  /**
   * Sends with the current access token (renewed first when about to expire); when the upstream says
   * it expired all the same, renews it once and sends once more. Fixed auth headers need none of it.
   */
  private async withAccessToken<T>(send: (auth: Record<string, string>) => Promise<T>): Promise<T> {
    const { refreshing } = this;
    if (!refreshing) return send({});
    const used = await refreshing.token.current();
    try {
      return await send({ [refreshing.header]: refreshing.headerValue(used) });
    } catch (error) {
      const answer = answerOf(error);
      if (!answer || !refreshing.isExpired(answer)) throw error;
      return send({ [refreshing.header]: refreshing.headerValue(await refreshing.token.afterRejection(used)) });
    }
  }
}

export interface UpstreamStream {
  status: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Uint8Array>;
}
