/**
 * A restarted instance takes back at once the jobs its crashed run held, not after their lease; the
 * jobs another instance held still wait for theirs. Server processes killed mid-sync (SIGKILL: no
 * shutdown lets the job go), on SQLite and on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import got from 'got';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { CLOUD_API_DB_FILE } from '../core/hosted/cloud-api/cloud-database.ts';
import { CHAT_TOKEN, slackSourceConfiguration } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const http = got.extend({ throwHttpErrors: false, retry: { limit: 0 } });

interface JobRow {
  status: string;
  attempts: number;
  lease_owner: string | null;
  lease_until: string | Date | null;
  ended_at: string | Date | number | null;
}

/** The chat sandbox behind a gate that, while closed, holds every users.list call unanswered: a sync stays mid-run. */
async function gatedSandbox(sandbox: SlackSandbox) {
  const upstream = new URL(sandbox.url);
  const held: ServerResponse[] = [];
  const gate = { closed: false, held };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (gate.closed && req.url?.includes('users.list')) {
      held.push(res);
      return;
    }
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`;
  const close = async () => {
    for (const res of held) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return { gate, url, close };
}

async function until<T>(what: string, look: () => Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const found = await look();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const time = (value: string | Date | number | null): number => (value === null ? Number.NaN : new Date(value).getTime());

describe.each(BACKENDS)('an instance restarted on %s', (backend) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A sync job's row as the database holds it. */
  async function jobRow(db: TestDatabase, id: number): Promise<JobRow> {
    const sql = 'SELECT status, attempts, lease_owner, lease_until, ended_at FROM sync_jobs WHERE id = ?';
    if (!db.databaseUrl) {
      const file = new Database(join(db.dataDir, CLOUD_API_DB_FILE), { readonly: true });
      try {
        return file.prepare(sql).get(id) as JobRow;
      } finally {
        file.close();
      }
    }
    const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await client.connect();
    try {
      const row = (await client.query<JobRow>(sql.replace('?', '$1'), [id])).rows[0]!;
      return { ...row, attempts: Number(row.attempts) };
    } finally {
      await client.end();
    }
  }

  it("takes back its own interrupted job at once; another instance's waits for its lease", { timeout: 120_000 }, async () => {
    const sandbox = await SlackSandbox.start({ token: CHAT_TOKEN, users: 20, channels: 2, messagesPerChannel: 2 });
    cleanups.push(() => sandbox.close());
    const upstream = await gatedSandbox(sandbox);
    cleanups.push(() => upstream.close());
    const db = await createTestDatabase(backend);
    cleanups.push(() => db.drop());
    const env = {
      ...db.env,
      PLUGBOARD_DATA_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      PLUGBOARD_CHAT_BASE_URL: upstream.url,
      // Info lines carry the process id, which the test kills.
      LOG_LEVEL: 'info',
    };
    const start = async (instanceId: string) => {
      const server = await startServerProcess({ ...env, PLUGBOARD_INSTANCE_ID: instanceId });
      cleanups.push(() => server.stop());
      expect(server.url, server.output.stderr).not.toBeNull();
      return server;
    };
    /** A crash: no shutdown, so the job it runs keeps its lease. */
    const kill = async (server: ServerProcess) => {
      const line = server.output.stdout.split('\n').find((text) => text.startsWith('{') && text.includes('"pid"'));
      const pid = (JSON.parse(line!) as { pid: number }).pid;
      process.kill(pid, 'SIGKILL');
      await server.stop();
    };

    let a = await start('instance-a');
    const credentials = a.firstApplication!;
    const tokenAt = async (url: string) =>
      (await http.post(`${url}/v1/applications/token`, { json: credentials }).json<{ access_token: string }>()).access_token;
    const api = async (url: string, method: 'GET' | 'POST', path: string, json?: unknown) => {
      const answer = await http(`${url}/v1/${path}`, { method, headers: bearer(await tokenAt(url)), ...(json ? { json } : {}) });
      expect(answer.statusCode, answer.body).toBe(200);
      return JSON.parse(answer.body) as Record<string, any>;
    };
    const { workspaceId } = await api(a.url!, 'POST', 'workspaces', { name: 'restart-ws' });
    const { sourceId } = await api(a.url!, 'POST', 'sources', { name: 'chat', workspaceId, configuration: slackSourceConfiguration() });
    const connection = async (url: string) => {
      const configuration = { destinationType: 'sqlite', destination_path: `/local/${randomBytes(4).toString('hex')}.sqlite` };
      const { destinationId } = await api(url, 'POST', 'destinations', { name: 'tables', workspaceId, configuration });
      const streams = [{ name: 'users', syncMode: 'full_refresh_overwrite' }];
      return (await api(url, 'POST', 'connections', { sourceId, destinationId, configurations: { streams } })).connectionId as string;
    };
    /** A sync started on `server` and held mid-run there, then the server killed: its row keeps the lease. */
    const interrupted = async (server: ServerProcess, instanceId: string) => {
      const { jobId } = await api(server.url!, 'POST', 'jobs', { connectionId: await connection(server.url!), jobType: 'sync' });
      const heldBefore = upstream.gate.held.length;
      await until('the sync to be held mid-run', async () => upstream.gate.held.length > heldBefore);
      const row = await jobRow(db, jobId);
      expect(row).toMatchObject({ status: 'running', attempts: 1 });
      expect(row.lease_owner).toMatch(new RegExp(`^${instanceId}/`));
      await kill(server);
      return { jobId: jobId as number, row };
    };

    upstream.gate.closed = true;
    const own = await interrupted(a, 'instance-a');
    const other = await interrupted(await start('instance-b'), 'instance-b');
    upstream.gate.closed = false;

    a = await start('instance-a');
    const done = await until('the interrupted job to end', async () => {
      const row = await jobRow(db, own.jobId);
      return row.status !== 'running' && row;
    });
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(2);
    expect(done.lease_owner).toBeNull();
    // Ended before the crashed run's lease would have let anyone take it.
    expect(time(done.ended_at)).toBeLessThan(time(own.row.lease_until));
    // Instance B's job is still B's, leased, untouched: it waits for its lease (or for B).
    expect(await jobRow(db, other.jobId)).toEqual(other.row);
    expect(time(other.row.lease_until)).toBeGreaterThan(time(done.ended_at));
  });
});
