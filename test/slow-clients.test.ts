/**
 * Slow clients cannot hold the server: a client must send its headers, then its whole request, within
 * the timeouts, or its connection is closed; connections beyond the cap are closed as they arrive; and
 * the request timeout does not cut a response that takes longer than it to stream.
 */
import { connect, type Socket } from 'node:net';
import got from 'got';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, listen, type ConnectionLimits } from '../server/http-server.ts';
import { startServer } from '../server/start.ts';
import { createTestDatabase, DATA_KEYS, testServerConfig } from './helpers/hosted-fixture.ts';

const LIMITS: ConnectionLimits = { headersTimeoutSeconds: 1, requestTimeoutSeconds: 2, maxConnections: 1024 };
/** How long past a timeout a connection may stay open: generous for noisy machines, far below Node's defaults (60 s for headers, 300 s for a request). */
const GRACE_FACTOR = 5;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The hosted server (SQLite in a temp directory) with these connection limits; answers its URL. */
async function serve(limits: Partial<ConnectionLimits> = {}): Promise<string> {
  const database = await createTestDatabase('sqlite');
  cleanups.push(() => database.drop());
  const server = await startServer(testServerConfig(database, { ...LIMITS, ...limits }), {
    logger: pino({ level: 'silent' }),
    env: { PLUGBOARD_DATA_KEYS: DATA_KEYS },
  });
  cleanups.push(() => server.close());
  return server.url;
}

/** A raw TCP connection: what it received, and when it closed (a reset counts as closed). */
interface RawConnection {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

/** `allowHalfOpen`: the client never closes its side on its own, even once the server has closed its. */
function open(url: string, { allowHalfOpen = false } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen });
  cleanups.push(() => socket.destroy());
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      resolve({ socket, received: () => received, closed });
    });
  });
}

/** Whether the connection closes within `seconds`; false if it is still open then. */
async function closesWithin(connection: RawConnection, seconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const stillOpen = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), seconds * 1000)));
  try {
    return await Promise.race([connection.closed.then(() => true as const), stillOpen]);
  } finally {
    clearTimeout(timer);
  }
}

/** The server's answer to a timed-out request: a 408, or the connection simply closed. */
const TIMED_OUT = /^(HTTP\/1\.1 408 |$)/;

describe('slow clients', () => {
  it('a client that stalls in the middle of its headers gets a 408 and its connection closed', async () => {
    const url = await serve();
    const stalled = await open(url);
    stalled.socket.write('GET /openapi.json HTTP/1.1\r\nHost: plugboard.test\r\n');
    expect(await closesWithin(stalled, GRACE_FACTOR * LIMITS.headersTimeoutSeconds)).toBe(true);
    expect(stalled.received()).toMatch(TIMED_OUT);
    expect((await got(`${url}/openapi.json`, { throwHttpErrors: false })).statusCode).toBe(200);
  });

  it('a client that trickles its body is closed once the request timeout passes, however steadily it sends', async () => {
    const url = await serve();
    const trickling = await open(url);
    trickling.socket.write(
      'POST /api/v1/account/applications/token HTTP/1.1\r\nHost: plugboard.test\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
    );
    // A byte every 100 ms: never idle, never done.
    const trickle = setInterval(() => trickling.socket.write(' '), 100);
    cleanups.push(() => clearInterval(trickle));
    expect(await closesWithin(trickling, GRACE_FACTOR * LIMITS.requestTimeoutSeconds)).toBe(true);
    expect(trickling.received()).toMatch(TIMED_OUT);
  });

  it('connections beyond the cap are closed as they arrive, while those within it stay open and are served', async () => {
    // Timeouts far longer than the test, so nothing but the cap closes a connection.
    const url = await serve({ maxConnections: 2, headersTimeoutSeconds: 60, requestTimeoutSeconds: 60 });
    const within = [await open(url), await open(url)];
    const beyond = await open(url);
    expect(await closesWithin(beyond, GRACE_FACTOR)).toBe(true);
    expect(beyond.received()).toBe('');
    for (const connection of within) {
      connection.socket.write('GET /openapi.json HTTP/1.1\r\nHost: plugboard.test\r\nConnection: close\r\n\r\n');
      expect(await closesWithin(connection, GRACE_FACTOR)).toBe(true);
      expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    }
  });

  it('a request Node refuses before any route (a head too large, a malformed request line) gets a JSON error body, then the connection closes', async () => {
    const url = await serve();
    const cases: Array<[string, RegExp, string]> = [
      [`GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: plugboard.test\r\n\r\n`, /^HTTP\/1\.1 431 /, 'Request headers too large'],
      ['NOT-HTTP\r\n\r\n', /^HTTP\/1\.1 400 /, 'Malformed HTTP request'],
      ['GET /healthz HTTP/1.1\r\nHost: plugboard.test\r\nContent-Length: x\r\n\r\n', /^HTTP\/1\.1 400 /, 'Malformed HTTP request'],
    ];
    for (const [request, status, detail] of cases) {
      const connection = await open(url);
      connection.socket.write(request);
      expect(await closesWithin(connection, GRACE_FACTOR)).toBe(true);
      const [head, body] = connection.received().split('\r\n\r\n');
      expect(head).toMatch(status);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body!)).toEqual({ detail });
    }
  });

  it('a timed-out client that never closes its side does not keep its connection: the server destroys it', async () => {
    const server = createHttpServer((_request, response) => response.end(), { headersTimeoutSeconds: 1, requestTimeoutSeconds: 1, maxConnections: 10 });
    await listen(server, 0, '127.0.0.1');
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as { port: number };
    const halfOpen = await open(`http://127.0.0.1:${port}`, { allowHalfOpen: true });
    halfOpen.socket.write('GET / HTTP/1.1\r\nHost: plugboard.test\r\n');
    const connections = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    let held = 1;
    // Until the 408 has come and the server holds no connection (or the grace runs out).
    for (let waited = 0; (held > 0 || halfOpen.received() === '') && waited < GRACE_FACTOR * 1000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      held = await connections();
    }
    expect(halfOpen.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(held).toBe(0);
  });

  it('a response streams on for longer than the request timeout: only receiving the request is bounded', async () => {
    const limits: ConnectionLimits = { headersTimeoutSeconds: 1, requestTimeoutSeconds: 1, maxConnections: 10 };
    const lines = 15;
    // The server start.ts runs, with a handler that answers a line every 200 ms: 3 s, three times the request timeout.
    const server = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const ticker = setInterval(() => {
        response.write(`${++sent}\n`);
        if (sent === lines) {
          clearInterval(ticker);
          response.end();
        }
      }, 200);
    }, limits);
    await listen(server, 0, '127.0.0.1');
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as { port: number };
    const response = await got.post(`http://127.0.0.1:${port}/download`, { json: { fileId: 'large' }, retry: { limit: 0 } });
    expect(response.body.trim().split('\n')).toHaveLength(lines);
  });
});
