import got from 'got';
import { sharedEgressAgents } from '../../security/egress/egress-agents.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';

/** What a receiver answered: its status, the start of its body (Slack's answers say why in words), its Retry-After. */
export interface WebhookAnswer {
  statusCode: number;
  snippet: string;
  retryAfterMs?: number;
}

/** A send that got no answer, described without the URL (it is a credential) or any address it resolved to. */
export class WebhookSendError extends Error {
  constructor(
    message: string,
    /** The egress policy refused the address: no later attempt can get through. */
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'WebhookSendError';
  }
}

const SNIPPET_BYTES = 200;

/**
 * One POST of a webhook through the egress policy's agents (every address judged as it connects,
 * redirects not followed: Standard Webhooks counts a 3xx as a failure). The answer's body is read
 * only as far as the snippet, so a receiver cannot make the server hold a large one.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { egress: EgressPolicy; timeoutMs: number; signal?: AbortSignal },
): Promise<WebhookAnswer> {
  return new Promise((resolve, reject) => {
    const stream = got.stream.post(url, {
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'Plugboard-Webhooks/1.0', ...headers },
      agent: sharedEgressAgents(options.egress),
      timeout: { request: options.timeoutMs },
      retry: { limit: 0 },
      followRedirect: false,
      throwHttpErrors: false,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let answer: WebhookAnswer | undefined;
    const chunks: Buffer[] = [];
    let read = 0;
    const done = () => {
      if (!answer) return;
      answer.snippet = Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET_BYTES).trim();
      // got lets go of its listener on `signal` only when the request is destroyed, not when it ends.
      stream.destroy();
      resolve(answer);
    };
    stream.on('response', (response: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
      answer = { statusCode: response.statusCode, snippet: '', ...retryAfter(response.headers['retry-after']) };
    });
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      read += chunk.length;
      if (read >= SNIPPET_BYTES) done();
    });
    stream.on('end', done);
    stream.on('error', (error: Error) => (answer ? done() : reject(describe(error, options.timeoutMs))));
  });
}

/** Retry-After in seconds or as an HTTP date, in ms from now. */
function retryAfter(value: string | string[] | undefined): { retryAfterMs?: number } {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return {};
  const ms = /^\d+$/.test(text.trim()) ? Number(text.trim()) * 1000 : Date.parse(text) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? { retryAfterMs: ms } : {};
}

function describe(error: Error, timeoutMs: number): WebhookSendError {
  const code = (error as { code?: string }).code;
  // got passes EgressRefusedError on with its code and words (host and port as configured, never the address).
  if (code === 'EGRESS_REFUSED') return new WebhookSendError(error.message, true);
  if (code === 'ETIMEDOUT' || error.name === 'TimeoutError') return new WebhookSendError(`no answer within ${timeoutMs} ms`, false);
  // A connect error's message names the address; its code is enough.
  return new WebhookSendError(`the request failed: ${code ?? error.name}`, false);
}
