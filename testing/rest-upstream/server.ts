import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../sandbox-kit.ts';
import { authorized, IssuedTokens, type UpstreamAuth } from './auth.ts';
import { firstItemFrom, itemAt, projectAt, taskOf } from './records.ts';

export interface RestUpstreamOptions {
  /** Items served at /api/items (default 1,000). */
  items?: number;
  /** Projects at /api/projects (default 5), each with `tasksPerProject` tasks (default 12). */
  projects?: number;
  tasksPerProject?: number;
  /** The largest page any list answers (default 1,000): a bigger `limit` / `per_page` is cut down to it. */
  maxPageSize?: number;
  auth?: UpstreamAuth;
  /** Default true: every API request is logged in `requests`; a benchmark turns it off. */
  recordRequests?: boolean;
  /** The upstream's clock (ms), for issued tokens' lifetimes. */
  clock?: () => number;
}

export interface UpstreamRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The body of a POST, parsed (JSON or form). */
  body?: Record<string, unknown>;
}

/** A fault: the next `count` requests to `path` answer `status` (429 with `retryAfter` seconds when given). */
export interface UpstreamFault {
  path: string;
  status: number;
  count?: number;
  retryAfter?: number;
}

/**
 * A small REST API for declarative-connector tests and benchmarks: items with every pagination style
 * (page number, offset, cursor) and date-window filters, projects with tasks (a substream), a single
 * record path, a check endpoint, and each kind of authentication a manifest may use.
 */
export class RestUpstream {
  readonly requests: UpstreamRequest[] = [];
  private readonly faults: Required<UpstreamFault>[] = [];
  private readonly tokens = new IssuedTokens();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly settings: Required<Omit<RestUpstreamOptions, 'clock'>> & { clock: () => number },
  ) {}

  static async start(options: RestUpstreamOptions = {}): Promise<RestUpstream> {
    const settings = {
      items: options.items ?? 1000,
      projects: options.projects ?? 5,
      tasksPerProject: options.tasksPerProject ?? 12,
      maxPageSize: options.maxPageSize ?? 1000,
      auth: options.auth ?? { kind: 'none' as const },
      recordRequests: options.recordRequests ?? true,
      clock: options.clock ?? Date.now,
    };
    let upstream: RestUpstream | undefined;
    const server = createServer((req, res) => {
      upstream!.handle(req, res).catch((error: unknown) => send(res, 500, { error: 'internal', message: String(error) }));
    });
    const url = await listen(server);
    upstream = new RestUpstream(server, url, settings);
    return upstream;
  }

  /** Tokens issued by the session and OAuth endpoints so far. */
  get issuedTokens(): number {
    return this.tokens.count;
  }

  fail(fault: UpstreamFault): void {
    this.faults.push({ count: 1, retryAfter: 0, ...fault });
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    const query = Object.fromEntries(url.searchParams);
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (this.settings.recordRequests) this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, ...(body ? { body } : {}) });
    const fault = this.faults.find((candidate) => candidate.path === url.pathname && candidate.count > 0);
    if (fault) {
      fault.count--;
      return send(res, fault.status, { error: 'injected fault' }, fault.retryAfter ? { 'retry-after': String(fault.retryAfter) } : {});
    }
    const now = this.settings.clock();
    if (url.pathname === '/api/session' && req.method === 'POST') return this.session(res, body, now);
    if (url.pathname === '/oauth/token' && req.method === 'POST') return this.oauthToken(res, body, now);
    if (!authorized(req, this.settings.auth, this.tokens, now)) return send(res, 401, { error: 'unauthorized' });
    const route = url.pathname;
    if (route === '/api/me') return send(res, 200, { id: 'me', name: 'Test account' });
    if (route === '/api/items') return this.items(res, query);
    const item = /^\/api\/items\/(\d+)$/.exec(route);
    if (item) return this.item(res, Number(item[1]));
    if (route === '/api/projects') return this.page(res, query, this.settings.projects, projectAt);
    const tasks = /^\/api\/projects\/(\d+)\/tasks$/.exec(route);
    if (tasks) return this.tasks(res, query, Number(tasks[1]));
    send(res, 404, { error: 'not_found' });
  }

  /** Items updated within [updated_after, updated_before), oldest first. */
  private items(res: ServerResponse, query: Record<string, string>): void {
    const { items, projects } = this.settings;
    const from = firstItemFrom(query.updated_after ?? null, items);
    const until = query.updated_before === undefined ? items : firstItemFrom(query.updated_before, items);
    this.page(res, query, Math.max(0, until - from), (index) => itemAt(from + index, projects));
  }

  private item(res: ServerResponse, id: number): void {
    if (!Number.isInteger(id) || id < 1 || id > this.settings.items) return send(res, 404, { error: 'not_found' });
    send(res, 200, { data: itemAt(id - 1, this.settings.projects) });
  }

  private tasks(res: ServerResponse, query: Record<string, string>, projectId: number): void {
    if (projectId < 1 || projectId > this.settings.projects) return send(res, 404, { error: 'not_found' });
    this.page(res, query, this.settings.tasksPerProject, (index) => taskOf(projectId, index));
  }

  /**
   * One page of `total` records, by whichever style the request speaks: `cursor` (an opaque token),
   * `offset` with `limit`, or `page` (from 1) with `per_page`. Every answer carries `next_cursor` and
   * `meta`, so any paginator finds what it reads.
   */
  private page<T>(res: ServerResponse, query: Record<string, string>, total: number, recordAt: (index: number) => T): void {
    const size = Math.min(this.settings.maxPageSize, positive(query.limit ?? query.per_page, 100));
    let start = 0;
    if (query.cursor !== undefined) start = Number(Buffer.from(query.cursor, 'base64url').toString()) || 0;
    else if (query.offset !== undefined) start = positive(query.offset, 0, true);
    else if (query.page !== undefined) start = (positive(query.page, 1) - 1) * size;
    const end = Math.min(total, start + size);
    const data: T[] = [];
    for (let index = start; index < end; index++) data.push(recordAt(index));
    const nextCursor = end < total ? Buffer.from(String(end)).toString('base64url') : null;
    send(res, 200, { data, next_cursor: nextCursor, meta: { total, count: data.length, page: Math.floor(start / size) + 1, per_page: size } });
  }

  private session(res: ServerResponse, body: Record<string, unknown> | undefined, now: number): void {
    const { auth } = this.settings;
    if (auth.kind !== 'session' || body?.username !== auth.username || body?.password !== auth.password) return send(res, 401, { error: 'bad_login' });
    send(res, 200, { token: this.tokens.issue(3_600_000, now) });
  }

  private oauthToken(res: ServerResponse, body: Record<string, unknown> | undefined, now: number): void {
    const { auth } = this.settings;
    if (auth.kind !== 'oauth') return send(res, 400, { error: 'unsupported_grant_type' });
    if (body?.client_id !== auth.clientId || body?.client_secret !== auth.clientSecret) return send(res, 401, { error: 'invalid_client' });
    if (body?.grant_type !== 'refresh_token' || body?.refresh_token !== auth.refreshToken) return send(res, 400, { error: 'invalid_grant' });
    send(res, 200, { access_token: this.tokens.issue(auth.tokenTtlSeconds * 1000, now), expires_in: auth.tokenTtlSeconds, token_type: 'Bearer' });
  }
}

function positive(value: string | undefined, fallback: number, zeroAllowed = false): number {
  const n = Number(value);
  return Number.isInteger(n) && (n > 0 || (zeroAllowed && n === 0)) ? n : fallback;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
