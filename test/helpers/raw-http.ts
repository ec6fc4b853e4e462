import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no URL parsing, so `..` segments and bad percent-escapes reach the server as written. */
  path: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request on its own connection, answered or failed (a reset, or no answer within `timeoutMs`). */
export function sendRaw(baseUrl: string, raw: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  // Node frames a GET, DELETE or OPTIONS body only when told its length; unframed, it reads as a second request.
  const headers = raw.body === undefined ? raw.headers : { 'content-length': raw.body.length, ...raw.headers };
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method: raw.method, path: raw.path, headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(raw.body);
  });
}
