import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, its body as received (the signature covers these exact bytes). */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  // A JSON body, asserted on by the tests.
  json: any;
}

/** How the receiver answers one request: a status and text, after a delay (a timeout when longer than the sender waits). */
export interface ReceiverAnswer {
  status?: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: records every request and answers 200 `ok` (as Slack's
 * incoming webhooks do) unless answers were queued for the path. `onRequest` runs before it answers.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  onRequest?: (request: ReceivedWebhook) => void;
  private readonly answers = new Map<string, ReceiverAnswer[]>();
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const request = { path, headers: req.headers, body, json: body ? JSON.parse(body) : undefined };
        receiver!.received.push(request);
        receiver!.onRequest?.(request);
        for (const wake of receiver!.waiters) wake();
        const answer = receiver!.answers.get(path)?.shift() ?? {};
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? 'ok');
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Queues how the next requests to `path` are answered, in order. */
  answer(path: string, ...answers: ReceiverAnswer[]): void {
    this.answers.set(path, [...(this.answers.get(path) ?? []), ...answers]);
  }

  /** The requests to `path` (all of them so far). */
  to(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `count` requests reached `path`; those requests. */
  async waitFor(path: string, count = 1, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    await this.until(() => this.to(path).length >= count, `${count} webhooks to reach ${path}`, timeoutMs);
    return this.to(path);
  }

  /** Waits for the attempts of one message (its webhook-id); all of them so far. */
  async attemptsOf(id: string, count = 1, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    const of = () => this.received.filter((request) => request.headers['webhook-id'] === id);
    await this.until(() => of().length >= count, `${count} attempts of ${id}`, timeoutMs);
    return of();
  }

  private async until(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`no ${what} in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        this.waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
