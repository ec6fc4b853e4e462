import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { DriveSandbox } from '../connectors/file-storage/sandbox/index.ts';
import { createRuntime, type PlugboardRuntime } from '../index.ts';
import { paginate } from '../core/execution/paginate.ts';
import type { ExecuteResult } from '../core/execution/types.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';
import { createDestination } from '../core/hosted/sync/destinations/create-destination.ts';
import type { Destination, StreamWriter } from '../core/hosted/sync/destinations/destination.ts';
import { migrateSync } from '../core/hosted/sync/migrate-sync.ts';
import { type JobType, SyncJobs, type SyncJob } from '../core/hosted/sync/sync-jobs.ts';
import { SyncStates } from '../core/hosted/sync/sync-states.ts';
import { findSyncStream } from '../core/hosted/sync/sync-streams.ts';
import type { SelectedStream, SyncTarget } from '../core/hosted/sync/sync-target.ts';
import { SyncWorker } from '../core/hosted/sync/sync-worker.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { type SyncEngineFixture, startSyncEngine } from './helpers/sync-engine-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { asRecord, DESTINATION_TYPES, testDestination, type TestDestination } from './helpers/sync-destinations.ts';
import { DeploymentUpstreams } from '../core/hosted/deployment-upstreams.ts';

/**
 * The sync engine end to end, below the HTTP API: jobs read the chat sandbox through the chat
 * connector and land typed tables in each destination that match the connector's `list` results
 * row for row; incremental syncs add only what is new; failed attempts are retried; a worker that
 * dies mid-sync is taken over and its successor resumes from the saved state without duplicates.
 */

const STREAMS: SelectedStream[] = [
  { name: 'users', syncMode: 'full_refresh_overwrite' },
  { name: 'channels', syncMode: 'full_refresh_overwrite' },
  { name: 'channel_messages', syncMode: 'incremental_deduped_history' },
  { name: 'threads', syncMode: 'full_refresh_overwrite' },
];

/** A destination whose table writers are wrapped: a test's way to fail or stop a worker mid-write. */
function withWriters(wrapWriter: (writer: StreamWriter) => StreamWriter) {
  return (inner: Destination): Destination => ({
    ...inner,
    type: inner.type,
    check: () => inner.check(),
    dropTables: (names) => inner.dropTables(names),
    close: () => inner.close(),
    openStream: async (table, mode, context) => wrapWriter(await inner.openStream(table, mode, context)),
  });
}

describe.each(DESTINATION_TYPES)('sync engine into %s', (destinationType) => {
  let sandbox: SlackSandbox;
  let runtime: PlugboardRuntime;
  let dataDir: string;
  let jobs: SyncJobs;
  let states: SyncStates;
  const workers: SyncWorker[] = [];
  const destinations: TestDestination[] = [];

  let fixture: SyncEngineFixture;

  beforeAll(async () => {
    fixture = await startSyncEngine({ users: 40, channels: 6, messagesPerChannel: 30 }, 'sync');
    ({ sandbox, runtime, dataDir, jobs, states } = fixture);
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  });
  afterAll(async () => {
    for (const destination of destinations) await destination.drop();
    await fixture.close();
  });

  let connections = 0;
  async function connection(streams = STREAMS, settings: Record<string, unknown> = {}) {
    const destination = await testDestination(destinationType, dataDir);
    destinations.push(destination);
    const target: SyncTarget = {
      connectionId: `00000000-0000-4000-8000-${String(++connections).padStart(12, '0')}`,
      workspaceId: '00000000-0000-4000-8000-000000000000',
      prefix: 'slack_',
      streams,
      source: { sourceId: 'source', connectorType: 'chat', credentials: { token: CHAT_TOKEN }, settings },
      destination: { destinationId: 'destination', destinationType, configuration: destination.configuration },
    };
    return { target, destination };
  }

  function startWorker(target: SyncTarget, options: { leaseMs?: number; wrap?: (destination: Destination) => Destination; crashes?: boolean } = {}) {
    const worker = new SyncWorker({
      // A crashing worker's stop lets nothing go, as a killed process would not.
      jobs: options.crashes ? (Object.create(jobs, { release: { value: async () => undefined } }) as SyncJobs) : jobs,
      states,
      runtime,
      upstreams: new DeploymentUpstreams({ chat: sandbox.url }),
      openDestination: (given) => {
        const destination = createDestination(given.destinationType, given.configuration, { dataDir });
        return options.wrap ? options.wrap(destination) : destination;
      },
      target: async (id) => (id === target.connectionId ? target : undefined),
      pollMs: 25,
      retryDelayMs: 20,
      leaseMs: options.leaseMs ?? 10_000,
    });
    workers.push(worker);
    worker.start();
    return worker;
  }

  async function settled(id: number): Promise<SyncJob> {
    for (let i = 0; i < 1200; i++) {
      const job = (await jobs.get(id))!;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`job ${id} did not settle`);
  }

  async function runJob(target: SyncTarget, type: JobType = 'sync'): Promise<SyncJob> {
    const job = await jobs.create(target.connectionId, target.workspaceId, type);
    const worker = startWorker(target);
    const done = await settled(job.id);
    await worker.stop();
    return done;
  }

  /** Every record of a stream as the chat connector lists it now: what the table must hold. */
  async function expected(stream: string): Promise<Record<string, unknown>[]> {
    const chat = runtime.plugin('chat');
    const execute = runtime.executor('chat', { credentials: { token: CHAT_TOKEN }, base_url: sandbox.url }) as (request: unknown) => Promise<ExecuteResult>;
    const list = (entity: string, params: Record<string, unknown>) => paginate(chat, execute as never, { entity, action: 'list', params });
    const all = async (iterable: AsyncIterable<Record<string, unknown>>) => {
      const out: Record<string, unknown>[] = [];
      for await (const item of iterable) out.push(item);
      return out;
    };
    if (stream === 'users') return all(list('users', { limit: 1000 }));
    const channels = await all(list('channels', { limit: 1000, types: 'public_channel,private_channel,mpim,im' }));
    if (stream === 'channels') return channels;
    const messages: Record<string, unknown>[] = [];
    for (const channel of channels.filter((c) => c.is_member === true || c.is_im === true || c.is_mpim === true)) {
      for (const message of await all(list('channel_messages', { channel: channel.id, limit: 999 }))) messages.push({ ...message, channel_id: channel.id });
    }
    if (stream === 'channel_messages') return messages;
    const threads: Record<string, unknown>[] = [];
    for (const parent of messages.filter((m) => Number(m.reply_count ?? 0) > 0)) {
      for (const reply of await all(list('threads', { channel: parent.channel_id, ts: parent.ts, limit: 1000 })))
        threads.push({ ...reply, channel_id: parent.channel_id });
    }
    return threads;
  }

  /** Posts a message to a channel the bot is in, through the connector; answers the channel. */
  async function postMessage(text: string): Promise<Record<string, unknown>> {
    const chat = runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: sandbox.url }) as never as {
      messages: { create(params: Record<string, unknown>): Promise<unknown> };
    };
    const channel = (await expected('channels')).find((c) => c.is_member === true && c.is_im !== true)!;
    await chat.messages.create({ channel: channel.id, text });
    return channel;
  }

  /** The table's rows as records, and the expected records, both in primary-key order with the table's columns. */
  async function compare(destination: TestDestination, stream: string) {
    const spec = findSyncStream(runtime.plugin('chat'), stream)!;
    const key = (record: Record<string, unknown>) => spec.primaryKey.map((field) => String(record[field])).join(':');
    const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
    const rows = await destination.rows(`slack_${stream}`);
    const got = rows.map((row) => asRecord(row, spec.columns)).sort(byKey);
    const want = (await expected(stream)).map((record) => asRecord(JSON.parse(JSON.stringify(record)), spec.columns)).sort(byKey);
    return { rows, got, want };
  }

  it('lands typed tables that match the connector’s list results row for row', async () => {
    const { target, destination } = await connection();
    const job = await runJob(target);
    expect(job.status).toBe('succeeded');
    expect(job.attempts).toBe(1);
    expect(await destination.tables()).toEqual(expect.arrayContaining(['slack_channel_messages', 'slack_channels', 'slack_threads', 'slack_users']));
    let total = 0;
    let bytes = 0;
    for (const stream of STREAMS) {
      const { rows, got, want } = await compare(destination, stream.name);
      expect(want.length, stream.name).toBeGreaterThan(0);
      expect(got, stream.name).toEqual(want);
      total += rows.length;
      // bytesSynced as Airbyte counts it, the same on every destination: each record read, serialized as JSON.
      for (const record of await expected(stream.name)) bytes += Buffer.byteLength(JSON.stringify(record));
      for (const row of rows.slice(0, 5)) {
        expect(row._airbyte_raw_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(row._airbyte_extracted_at).toBeTruthy();
        const meta = typeof row._airbyte_meta === 'string' ? JSON.parse(row._airbyte_meta) : row._airbyte_meta;
        expect(meta).toMatchObject({ changes: [], sync_id: job.id });
      }
    }
    expect(job.rows_synced).toBe(total);
    expect(job.bytes_synced).toBe(bytes);
    const [attempt] = await jobs.attempts(job.id);
    expect(attempt).toMatchObject({ status: 'succeeded', rows_synced: total });
    expect(attempt!.log).toContain('channel_messages');
  });

  it('syncs only what is new on an incremental stream, without duplicates; a reset drops the tables and the state', async () => {
    const { target, destination } = await connection([{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }]);
    const first = await runJob(target);
    expect(first.status).toBe('succeeded');
    const before = (await destination.rows('slack_channel_messages')).length;
    const channel = await postMessage('a message posted after the first sync');
    const second = await runJob(target);
    expect(second.status).toBe('succeeded');
    expect(second.rows_synced).toBe(1);
    const { got, want } = await compare(destination, 'channel_messages');
    expect(got).toEqual(want);
    expect(got.length).toBe(before + 1);
    expect(Object.keys((await states.get(target.connectionId, 'channel_messages'))?.cursors ?? {})).toContain(String(channel.id));

    const reset = await runJob(target, 'reset');
    expect(reset.status).toBe('succeeded');
    expect(await destination.tables()).not.toContain('slack_channel_messages');
    expect(await states.get(target.connectionId, 'channel_messages')).toBeUndefined();
  });

  it('a refresh reads an incremental stream from its start into a table swapped in whole; a failed one leaves the table and state', async () => {
    const { target, destination } = await connection([{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }]);
    expect((await runJob(target)).status).toBe('succeeded');
    const saved = await states.get(target.connectionId, 'channel_messages');
    expect(Object.keys(saved?.cursors ?? {}).length).toBeGreaterThan(0);

    // A refresh that reads a new message, then fails each attempt as it would swap its table in:
    // the synced table and its state stand (the state does not run ahead of the table).
    const before = await compare(destination, 'channel_messages');
    await postMessage('a message posted before the refresh');
    const failing = await jobs.create(target.connectionId, target.workspaceId, 'refresh');
    const worker = startWorker(target, {
      wrap: withWriters((writer) => ({
        write: (records) => writer.write(records),
        abort: () => writer.abort(),
        commit: () => Promise.reject(new Error('disk full')),
      })),
    });
    const failed = await settled(failing.id);
    await worker.stop();
    expect([failed.status, failed.attempts]).toEqual(['failed', 3]);
    expect(await states.get(target.connectionId, 'channel_messages')).toEqual(saved);
    expect((await compare(destination, 'channel_messages')).got).toEqual(before.got);

    const refresh = await runJob(target, 'refresh');
    expect(refresh.status).toBe('succeeded');
    const { rows, got, want } = await compare(destination, 'channel_messages');
    expect(got).toEqual(want);
    // Read whole, and every row written by the refresh: the table was replaced, not topped up.
    expect(refresh.rows_synced).toBe(rows.length);
    const syncIds = rows.map((row) => (typeof row._airbyte_meta === 'string' ? JSON.parse(row._airbyte_meta) : row._airbyte_meta).sync_id);
    expect(new Set(syncIds)).toEqual(new Set([refresh.id]));
    expect((await jobs.attempts(refresh.id))[0]!.log).toContain('refresh of slack_channel_messages from the start');
    expect(await states.get(target.connectionId, 'channel_messages')).not.toEqual(saved);

    // The next sync resumes from the state the refresh saved: only what is new is read.
    await postMessage('a message posted after the refresh');
    const next = await runJob(target);
    expect([next.status, next.rows_synced]).toEqual(['succeeded', 1]);
  });

  it('retries a failed attempt and succeeds; after three failures the job fails, with each attempt logged', async () => {
    const { target, destination } = await connection([{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
    // The transport's own retries (3) use up four answers: the first attempt fails, the second gets through.
    sandbox.addFault({ method: 'users.list', status: 500, count: 4 });
    const job = await runJob(target);
    expect(job.status).toBe('succeeded');
    expect(job.attempts).toBe(2);
    const attempts = await jobs.attempts(job.id);
    expect(attempts.map((attempt) => attempt.status)).toEqual(['failed', 'succeeded']);
    expect(attempts[0]!.failure).toBeTruthy();
    expect(attempts[0]!.log).toContain('failed');
    const { got, want } = await compare(destination, 'users');
    expect(got).toEqual(want);

    sandbox.addFault({ method: 'users.list', status: 200, error: 'invalid_auth', count: 3 });
    const failing = await runJob(target);
    expect(failing.status).toBe('failed');
    expect(failing.attempts).toBe(3);
    expect((await jobs.attempts(failing.id)).map((attempt) => attempt.status)).toEqual(['failed', 'failed', 'failed']);
    // The failed job's overwrite never swapped in: the last good table stands.
    expect((await compare(destination, 'users')).got).toEqual(want);
    expect(JSON.stringify(await jobs.attempts(failing.id))).not.toContain(CHAT_TOKEN);
  });

  it('a worker that dies mid-sync is taken over: the next attempt resumes from the saved state, without duplicates', async () => {
    const { target, destination } = await connection([{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }]);
    const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    let writes = 0;
    let dying: Promise<void> | undefined;
    const first = startWorker(target, {
      leaseMs: 300,
      crashes: true,
      // After its second batch is written, the worker dies: no finish, the lease left to expire.
      wrap: withWriters((writer) => ({
        commit: () => writer.commit(),
        abort: () => writer.abort(),
        async write(records) {
          const bytes = await writer.write(records);
          if (++writes === 2) dying = first.stop();
          return bytes;
        },
      })),
    });
    while (dying === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    await dying;
    const reported = (await jobs.get(job.id))!;
    expect(reported.status).toBe('running');
    expect((await destination.rows('slack_channel_messages')).length).toBeGreaterThanOrEqual(reported.rows_synced);
    const saved = await states.get(target.connectionId, 'channel_messages');
    expect(Object.keys(saved?.cursors ?? {}).length).toBeGreaterThan(0);

    startWorker(target);
    const done = await settled(job.id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(2);
    const attempts = await jobs.attempts(job.id);
    expect(attempts[0]).toMatchObject({ status: 'failed', failure: expect.stringContaining('lease expired') });
    expect(attempts[1]!.log).toContain('from saved state');
    const { got, want } = await compare(destination, 'channel_messages');
    expect(got).toEqual(want);
  });

  it('holds a job while it reads without writing: another worker does not take it over', async () => {
    const { target } = await connection([{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
    const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    // Rate limited for about four seconds before the first write, over two leases of 1.5 s (renewed
    // every 375 ms: shorter leases expired on a loaded machine, whose event loop paused that long).
    sandbox.addFault({ method: 'users.list', status: 429, retryAfter: 1, count: 4 });
    startWorker(target, { leaseMs: 1_500 });
    startWorker(target, { leaseMs: 1_500 });
    const done = await settled(job.id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(1);
  });

  it('fails a job whose last attempt died with its worker, rather than run it a fourth time', async () => {
    const { target } = await connection([{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
    const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await jobs.claim(job.id, `dead-worker-${attempt}`, -1)).toBe(attempt);
    }
    expect(await jobs.claim(job.id, 'another-worker', 60_000)).toBeUndefined();
    expect((await jobs.get(job.id))!.status).toBe('failed');
    expect((await jobs.attempts(job.id)).map((attempt) => attempt.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('cancels a pending job at once and a running one at its next renewal', async () => {
    const { target } = await connection([{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
    const pending = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    expect((await jobs.cancel(pending.id))?.status).toBe('cancelled');
    await expect(jobs.create(target.connectionId, target.workspaceId, 'sync')).resolves.toBeDefined();
    const running = (await jobs.live(target.connectionId))!;
    // Rate limited for a while: the attempt waits, renewing its lease, and learns of the cancellation.
    sandbox.addFault({ method: 'users.list', status: 429, retryAfter: 1, count: 50 });
    startWorker(target, { leaseMs: 200 });
    while ((await jobs.get(running.id))!.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
    await jobs.cancel(running.id);
    const done = await settled(running.id);
    expect(done.status).toBe('cancelled');
    expect((await jobs.attempts(running.id)).map((attempt) => attempt.status)).toEqual(['cancelled']);
    // A second job can't start while one is live; once it ended, it can.
    await expect(jobs.create(target.connectionId, target.workspaceId, 'sync')).resolves.toMatchObject({ status: 'pending' });
    await expect(jobs.create(target.connectionId, target.workspaceId, 'sync')).rejects.toMatchObject({ status: 409 });
    await jobs.cancel((await jobs.live(target.connectionId))!.id);
  });
});

describe('sync engine: the file-storage connector', () => {
  let sandbox: DriveSandbox;
  let runtime: PlugboardRuntime;
  let dataDir: string;
  let driver: SqliteDriver;
  let jobs: SyncJobs;
  let states: SyncStates;

  beforeAll(async () => {
    sandbox = await DriveSandbox.start({ token: DRIVE_TOKEN, files: 40, drives: 2 });
    runtime = await createRuntime();
    dataDir = mkdtempSync(join(tmpdir(), 'plugboard-sync-drive-'));
    driver = new SqliteDriver(dataDir, join(dataDir, 'cloud-api.db'));
    await migrateSync(driver);
    jobs = new SyncJobs(driver);
    states = new SyncStates(driver);
  });
  afterAll(async () => {
    await driver.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function sync(target: SyncTarget): Promise<SyncJob> {
    const worker = new SyncWorker({
      jobs,
      states,
      runtime,
      upstreams: new DeploymentUpstreams({ 'file-storage': sandbox.url }),
      openDestination: (given) => createDestination(given.destinationType, given.configuration, { dataDir }),
      target: async () => target,
      pollMs: 25,
      retryDelayMs: 20,
    });
    const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    worker.start();
    try {
      for (;;) {
        const now = (await jobs.get(job.id))!;
        if (['succeeded', 'failed', 'cancelled'].includes(now.status)) return now;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await worker.stop();
    }
  }

  it('lands files, drives, permissions and revisions, and follows the changes feed from its saved token', async () => {
    const destination = await testDestination('sqlite', dataDir);
    const target: SyncTarget = {
      connectionId: '00000000-0000-4000-8000-0000000000d1',
      workspaceId: '00000000-0000-4000-8000-000000000000',
      prefix: 'drive_',
      streams: [
        { name: 'files', syncMode: 'full_refresh_overwrite' },
        { name: 'drives', syncMode: 'full_refresh_overwrite' },
        { name: 'permissions', syncMode: 'full_refresh_overwrite' },
        { name: 'revisions', syncMode: 'full_refresh_overwrite' },
        { name: 'changes', syncMode: 'incremental_deduped_history' },
      ],
      source: { sourceId: 'drive', connectorType: 'file-storage', credentials: { access_token: DRIVE_TOKEN }, settings: {} },
      destination: { destinationId: 'destination', destinationType: 'sqlite', configuration: destination.configuration },
    };
    const first = await sync(target);
    expect(first.status, JSON.stringify(await jobs.attempts(first.id))).toBe('succeeded');
    const drive = runtime.connector('file-storage', { credentials: { access_token: DRIVE_TOKEN }, base_url: sandbox.url }) as never as {
      files: { list(params: Record<string, unknown>): Promise<{ result: Array<{ id: string }> }> };
    };
    const files = (await destination.rows('drive_files')).map((row) => row.id).sort();
    expect(files.length).toBeGreaterThan(0);
    expect(files).toEqual((await drive.files.list({ pageSize: 1000 })).result.map((file) => file.id).sort());
    expect((await destination.rows('drive_drives')).length).toBe(2);
    const permissions = await destination.rows('drive_permissions');
    expect(permissions.length).toBeGreaterThan(0);
    expect(new Set(permissions.map((row) => row.file_id)).size).toBeGreaterThan(1);
    expect((await destination.rows('drive_revisions')).length).toBeGreaterThan(0);
    // The first sync of a feed only takes its start token: no change is older than the connection.
    expect(await destination.rows('drive_changes')).toEqual([]);
    const token = (await states.get(target.connectionId, 'changes'))?.token;
    expect(token).toBeTruthy();

    // Two changes of the same file since: one row, its latest, and a new token.
    const changes = sandbox.data.changes as unknown as Array<Record<string, unknown>>;
    const fileId = files[0] as string;
    const next = Number(token);
    changes.push({ changeId: next, changeType: 'file', time: new Date().toISOString(), fileId, removed: false });
    changes.push({ changeId: next + 1, changeType: 'file', time: new Date().toISOString(), fileId, removed: true });
    const second = await sync(target);
    expect(second.status, JSON.stringify(await jobs.attempts(second.id))).toBe('succeeded');
    const rows = await destination.rows('drive_changes');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ fileId, removed: 1 });
    expect(Number((await states.get(target.connectionId, 'changes'))?.token)).toBe(next + 2);

    // Nothing new: the table stands as it is.
    const third = await sync({ ...target, streams: [{ name: 'changes', syncMode: 'incremental_deduped_history' }] });
    expect(third.rows_synced).toBe(0);
    expect(await destination.rows('drive_changes')).toHaveLength(1);
  });
});
