/**
 * One HTTP exchange of a manifest read, through got: Plugboard's egress agents when a policy is given
 * (a tenant's manifest names its own hosts, so every connection is judged at connect time, redirects
 * included), a timeout per request, a bound on the body, the read's abort signal. got's own retries are
 * off: the manifest's error handler decides them (send-with-retries.ts), and every status comes back
 * as an answer rather than an exception.
 */
import got, { CancelError, RequestError } from 'got';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { PlugboardError, UpstreamError } from '../../errors.ts';
import { sharedEgressAgents } from '../../security/egress/egress-agents.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { HttpMethod } from '../model.ts';

export interface OutgoingRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: { kind: 'json'; value: unknown } | { kind: 'form' | 'raw'; value: string };
  /** Headers that carry credentials: dropped when a redirect leaves the request's origin. */
  credentialHeaders: string[];
}

export interface UpstreamResponse {
  status: number;
  ok: boolean;
  /** Header names as the upstream wrote them (what `headers` in a manifest template sees), repeated ones joined by ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface HttpSettings {
  egress?: EgressPolicy;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

/** Keep-alive sockets for reads without an egress policy (the caller's own upstreams). */
const OPEN_AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** Sends once. Resolves with any status; rejects on a network failure, a timeout, an egress refusal, a body over the bound or an abort. */
export async function sendOnce(request: OutgoingRequest, settings: HttpSettings): Promise<UpstreamResponse> {
  const { body } = request;
  const origin = new URL(request.url).origin;
  const pending = got(request.url, {
    method: request.method,
    // The manifest's own User-Agent, if it sends one, wins.
    headers: Object.keys(request.headers).some((name) => name.toLowerCase() === 'user-agent')
      ? request.headers
      : { 'user-agent': 'plugboard', ...request.headers },
    ...(body?.kind === 'json' ? { json: body.value } : body ? { body: body.value } : {}),
    agent: settings.egress ? sharedEgressAgents(settings.egress) : OPEN_AGENTS,
    timeout: { request: settings.timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    // The CDK sends a GET's body when a manifest gives one; got refuses it unless told.
    allowGetBody: true,
    responseType: 'buffer',
    ...(settings.signal ? { signal: settings.signal } : {}),
    hooks: {
      beforeRedirect: [
        (redirected) => {
          if (redirected.url === undefined || new URL(redirected.url).origin === origin) return;
          for (const name of request.credentialHeaders) delete redirected.headers[name.toLowerCase()];
        },
      ],
    },
  });
  let tooLarge = false;
  pending.on('downloadProgress', (progress) => {
    if (progress.transferred > settings.maxResponseBytes && !tooLarge) {
      tooLarge = true;
      pending.cancel();
    }
  });
  try {
    const response = await pending;
    return { status: response.statusCode, ok: response.statusCode < 400, headers: headerDict(response.rawHeaders), body: response.body };
  } catch (error) {
    if (tooLarge && error instanceof CancelError) {
      throw new UpstreamError(`Upstream answered with a body larger than ${settings.maxResponseBytes} bytes`, 'upstream_response_too_large');
    }
    throw error;
  }
}

/** Whether a failure of sendOnce is the network's (worth a retry) rather than a refusal or an abort. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof RequestError)) return false;
  if (error.name === 'AbortError' || error instanceof CancelError) return false;
  // A connection the egress policy refused carries its own error; it is final.
  return !(error.cause instanceof PlugboardError);
}

function headerDict(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const names = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    const value = raw[index + 1]!;
    const known = names.get(name.toLowerCase());
    if (known === undefined) {
      names.set(name.toLowerCase(), name);
      Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
    } else headers[known] = `${headers[known]}, ${value}`;
  }
  return headers;
}

/** A header's value whatever the case of its name. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** requests' `response.links`: the Link header as `{rel: {url, rel, ...}}` (keyed by its url when it has no rel). */
export function parseLinks(headers: Record<string, string>): Record<string, Record<string, string>> {
  const links: Record<string, Record<string, string>> = {};
  const strip = (text: string, chars: string) => {
    let start = 0;
    let end = text.length;
    while (start < end && chars.includes(text[start]!)) start++;
    while (end > start && chars.includes(text[end - 1]!)) end--;
    return text.slice(start, end);
  };
  const header = strip(headerValue(headers, 'link') ?? '', ` '"`);
  if (header === '') return links;
  for (const part of header.split(/, *</)) {
    const semicolon = part.indexOf(';');
    const [url, params] = semicolon === -1 ? [part, ''] : [part.slice(0, semicolon), part.slice(semicolon + 1)];
    const link: Record<string, string> = { url: strip(url, `<> '"`) };
    for (const param of params.split(';')) {
      const pieces = param.split('=');
      if (pieces.length !== 2) break;
      link[strip(pieces[0]!, ` '"`)] = strip(pieces[1]!, ` '"`);
    }
    Object.defineProperty(links, link.rel ?? link.url!, { value: link, enumerable: true, writable: true, configurable: true });
  }
  return links;
}

/**
 * The headers as requests' CaseInsensitiveDict shows them to an error handler's templates:
 * `headers['retry-after']` and `headers['Retry-After']` read the same header; keys keep the upstream's case.
 */
export function caseInsensitiveHeaders(headers: Record<string, string>): Record<string, string> {
  const find = (key: string | symbol) => (typeof key === 'string' ? Object.keys(headers).find((name) => name.toLowerCase() === key.toLowerCase()) : undefined);
  return new Proxy(headers, {
    get: (target, key) => {
      const name = find(key);
      return name === undefined ? undefined : target[name];
    },
    has: (_target, key) => find(key) !== undefined,
    getOwnPropertyDescriptor: (target, key) => {
      const name = find(key);
      return name === undefined ? undefined : { value: target[name], enumerable: key === name, writable: true, configurable: true };
    },
  });
}
