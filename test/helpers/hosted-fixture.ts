import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import got, { type Got } from 'got';
import pg from 'pg';
import { pino } from 'pino';
import { expect } from 'vitest';
import { SlackSandbox, type SlackSandboxOptions } from '../../connectors/chat/sandbox/index.ts';
import { DriveSandbox } from '../../connectors/file-storage/sandbox/index.ts';
import { createStore, type Store } from '../../core/stores/index.ts';
import { configFromEnv, type ServerConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import { CHAT_TOKEN } from './chat-fixture.ts';
import { DRIVE_TOKEN } from './drive-fixture.ts';

export type Backend = 'sqlite' | 'postgres';
/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export const BACKENDS: Backend[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export const DATA_KEYS = `t1:${randomBytes(32).toString('base64')}`;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A database for one test file: a fresh PostgreSQL schema (dropped by `drop`) or a temp directory. */
export interface TestDatabase {
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
  /** The environment a child process (server, admin CLI) uses it with: PostgreSQL with the test's schema put in the URL. */
  env: Record<string, string>;
  /** A new store on it (the caller closes it). */
  openStore(): Promise<Store>;
  drop(): Promise<void>;
}

export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-test-'));
  if (backend === 'sqlite') {
    return {
      dataDir,
      env: { PLUGBOARD_DATA_DIR: dataDir },
      openStore: () => createStore({ dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL!;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dataDir,
    databaseUrl,
    schema,
    env: { PLUGBOARD_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    openStore: () => createStore({ dataDir, databaseUrl, schema }),
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface HostedFixture {
  chatSandbox: SlackSandbox;
  driveSandbox: DriveSandbox;
  server: RunningServer;
  /** got bound to the server, answering whatever status (tests assert it). */
  http: Got;
  /** Every log line the server wrote. */
  logs: string[];
  /** The server's data directory (where file destinations of syncs land). */
  dataDir: string;
  clientId: string;
  clientSecret: string;
  operatorToken(): Promise<string>;
  scopedToken(workspaceName: string): Promise<string>;
  /**
   * Stores a connector through the API (expecting a 201) and answers its JSON. It goes in the workspace
   * `scoped` is for; by default the one named after the user, as the hosted variant's client does.
   */
  createConnector(
    externalUserId: string,
    type: string,
    credentials: Record<string, string>,
    scoped?: string,
  ): Promise<{ id: string } & Record<string, unknown>>;
  /** Another server on the same database, with the fixture's settings but for `overrides`. */
  startAnotherServer(overrides?: Partial<ServerConfig>): Promise<RunningServer>;
  /** Stops the server and starts it again on the same port and database (a deploy, a crash). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The public URL test servers are configured with (their token issuer, the base of widget URLs). */
export const TEST_PUBLIC_URL = 'http://plugboard.test';

/** Largest JSON body the test servers take (small, so tests can go past it cheaply). */
export const TEST_BODY_LIMIT_BYTES = 64 * 1024;

/** A test server's settings: the defaults a deployment gets, on this database, at a fixed public URL, with `overrides`. */
/** Tests run their sandboxes and PostgreSQL on loopback, and say so: the egress tests narrow it again. */
export const TEST_EGRESS_ALLOW = '127.0.0.0/8,::1,localhost';

export function testServerConfig(database: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const defaults = configFromEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    PLUGBOARD_DATA_DIR: database.dataDir,
    PLUGBOARD_PUBLIC_URL: TEST_PUBLIC_URL,
    PLUGBOARD_BODY_LIMIT_BYTES: String(TEST_BODY_LIMIT_BYTES),
    PLUGBOARD_EGRESS_ALLOW: TEST_EGRESS_ALLOW,
  });
  return { ...defaults, databaseUrl: database.databaseUrl, ...overrides };
}

/**
 * `clock`: the servers' clock (tokens and widget origins), shared by every server the fixture starts;
 * `config`: settings that differ from the fixture's; `port`: the first server's (default: any free one).
 */
export async function startHostedFixture(
  backend: Backend,
  options: {
    chatClock?: () => number;
    /** The chat sandbox's settings beyond the fixture's (its size, its tokens' lifetime, its latency). */
    chat?: Partial<SlackSandboxOptions>;
    clock?: () => number;
    config?: Partial<ServerConfig>;
    port?: number;
  } = {},
): Promise<HostedFixture> {
  const chatSandbox = await SlackSandbox.start({
    token: CHAT_TOKEN,
    users: 30,
    channels: 8,
    messagesPerChannel: 25,
    ...(options.chatClock ? { clock: options.chatClock } : {}),
    ...options.chat,
  });
  const driveSandbox = await DriveSandbox.start({ token: DRIVE_TOKEN, largeFileBytes: 2 * 1024 * 1024 + 3 });
  const database = await createTestDatabase(backend);
  const logs: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _enc, done) => {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const config = testServerConfig(database, {
    baseUrls: () => ({ chat: chatSandbox.url, 'file-storage': driveSandbox.url }),
    // The consent pages and token endpoints of the sandboxes stand where Slack's and Google's do.
    oauthUrls: () => ({
      chat: { authorizeUrl: chatSandbox.authorizeUrl, tokenUrl: chatSandbox.tokenUrl },
      'file-storage': { authorizeUrl: driveSandbox.authorizeUrl, tokenUrl: driveSandbox.tokenUrl },
    }),
    ...options.config,
  });
  const env = { PLUGBOARD_DATA_KEYS: DATA_KEYS };
  const start = (port = 0, overrides: Partial<ServerConfig> = {}) =>
    startServer(
      { ...config, ...overrides, port },
      {
        logger,
        env,
        clock: options.clock,
        replicationPollMs: 200,
        syncPollMs: 100,
        syncRetryDelayMs: 50,
        ...(database.schema ? { databaseSchema: database.schema } : {}),
      },
    );
  const server = await start(options.port);
  const others: RunningServer[] = [];
  const http = got.extend({ prefixUrl: server.url, throwHttpErrors: false, retry: { limit: 0 } });
  const { client_id: clientId, client_secret: clientSecret } = server.firstApplication!;
  const operatorToken = async () => {
    const response = await http
      .post('api/v1/account/applications/token', { json: { client_id: clientId, client_secret: clientSecret } })
      .json<{ access_token: string }>();
    return response.access_token;
  };
  const fixture: HostedFixture = {
    chatSandbox,
    driveSandbox,
    server,
    http,
    logs,
    dataDir: database.dataDir,
    clientId,
    clientSecret,
    operatorToken,
    async scopedToken(workspaceName) {
      const operator = await operatorToken();
      const response = await http
        .post('api/v1/embedded/scoped-token', { headers: bearer(operator), json: { workspace_name: workspaceName } })
        .json<{ token: string }>();
      return response.token;
    },
    async createConnector(externalUserId, type, credentials, scoped) {
      const token = scoped ?? (await fixture.scopedToken(externalUserId));
      const response = await http.post('v1/integrations/connectors', {
        headers: bearer(token),
        json: { external_user_id: externalUserId, connector_type: type, credentials },
      });
      expect(response.statusCode, response.body).toBe(201);
      return JSON.parse(response.body) as { id: string } & Record<string, unknown>;
    },
    async startAnotherServer(overrides) {
      const other = await start(0, overrides);
      others.push(other);
      return other;
    },
    async restart() {
      const port = Number(new URL(fixture.server.url).port);
      await fixture.server.close();
      fixture.server = await start(port);
    },
    async close() {
      for (const other of others) await other.close();
      await fixture.server.close();
      await chatSandbox.close();
      await driveSandbox.close();
      await database.drop();
    },
  };
  return fixture;
}
