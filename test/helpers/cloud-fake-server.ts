import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
}

export type FakeHandler = (request: FakeRequest, params: Record<string, string>) => FakeAnswer | Promise<FakeAnswer>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

/**
 * A tiny stand-in for the public cloud API, for the cloud client's unit tests: routes the test
 * declares (`/v1/...` and `/api/v1/...` paths with `:params`), a token endpoint issuing `token-<n>`,
 * bearer checks, and every request recorded.
 */
export class FakeCloudServer {
  readonly requests: FakeRequest[] = [];
  /** Tokens the server accepts (the test may revoke one to make it stale). */
  readonly validTokens = new Set<string>();
  /** The token endpoint's `expires_in`. */
  expiresIn = 900;
  /** False: the server issues tokens and then refuses them all. */
  acceptTokens = true;
  private issued = 0;
  private readonly routes: Route[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeCloudServer> {
    let fake: FakeCloudServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const text = Buffer.concat(chunks).toString('utf8');
        const request: FakeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: text ? JSON.parse(text) : undefined,
        };
        const answer = await fake!.answer(request).catch((error: Error) => ({ status: 500, body: { detail: error.message } }));
        res.writeHead(answer.status ?? 200, answer.body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeCloudServer(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  /** The public API's root on this server. */
  get apiRoot(): string {
    return `${this.url}/v1`;
  }

  on(method: string, path: string, handler: FakeHandler): this {
    const names: string[] = [];
    const source = path.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const pattern = new RegExp(`^${source}$`);
    this.routes.unshift({ method: method.toUpperCase(), pattern, names, handler });
    return this;
  }

  /** Requests other than the token endpoint's. */
  apiRequests(): FakeRequest[] {
    return this.requests.filter((request) => !request.path.endsWith('/applications/token'));
  }

  tokenRequests(): FakeRequest[] {
    return this.requests.filter((request) => request.path.endsWith('/applications/token'));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: FakeRequest): Promise<FakeAnswer> {
    this.requests.push(request);
    if (request.method === 'POST' && request.path === '/v1/applications/token') {
      if (request.body?.client_id !== 'id-1' || request.body?.client_secret !== 'secret-1') return { status: 401, body: { detail: 'Invalid credentials' } };
      const token = `token-${++this.issued}`;
      this.validTokens.add(token);
      return { body: { access_token: token, token_type: 'Bearer', expires_in: this.expiresIn } };
    }
    const token = request.headers.authorization?.replace(/^Bearer /, '');
    if (!token || !this.acceptTokens || !this.validTokens.has(token)) return { status: 401, body: { detail: 'Invalid authentication credentials' } };
    for (const route of this.routes) {
      const match = route.method === request.method ? route.pattern.exec(request.path) : null;
      if (match) return route.handler(request, Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])));
    }
    return { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found' } };
  }
}

export const CLIENT_ID = 'id-1';
export const CLIENT_SECRET = 'secret-1';
