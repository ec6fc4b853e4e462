import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { SqlContextStore } from '../core/hosted/context-store/sql-context-store.ts';
import { ReplicationJobs } from '../core/hosted/replication/replication-jobs.ts';
import { createRuntime } from '../index.ts';

const TOKEN = 'xoxb-resume-test';
const CONFIG = { start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: false };

describe('replication that stops part way', () => {
  let sandbox: SlackSandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await SlackSandbox.start({ token: TOKEN, users: 40, channels: 12, messagesPerChannel: 30 });
    dir = mkdtempSync(join(tmpdir(), 'plugboard-resume-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const idsOf = async (path: string, entity: string) => {
    const store = (await createContextStore({ dataDir: dir, file: path })) as SqlContextStore;
    const rows = await store.driver.all<{ id: string }>('SELECT id FROM context_records WHERE entity = ? ORDER BY id', [entity]);
    await store.close();
    return rows.map((row) => row.id);
  };

  it('resumes after an upstream failure without duplicates or holes', async () => {
    const runtime = await createRuntime();
    const reference = runtime.connector('chat', { credentials: { token: TOKEN }, base_url: sandbox.url, context_store: { path: join(dir, 'reference.db') } });
    await reference.replicate!(CONFIG);
    await reference.close!();

    const chat = runtime.connector('chat', { credentials: { token: TOKEN }, base_url: sandbox.url, context_store: { path: join(dir, 'resumed.db') } });
    // History fails past core's retries for the channels read at once (4 attempts each): the run fails after users and channels.
    sandbox.addFault({ method: 'conversations.history', status: 500, count: 16 });
    await expect(chat.replicate!(CONFIG)).rejects.toThrow();
    const after = await chat.replicate!(CONFIG);
    expect(Object.values(after).every((entity) => entity.status === 'ready')).toBe(true);
    await chat.close!();

    for (const entity of ['users', 'channels', 'channel_messages', 'threads']) {
      const resumed = await idsOf('resumed.db', entity);
      expect(resumed, entity).toEqual(await idsOf('reference.db', entity));
      expect(new Set(resumed).size).toBe(resumed.length);
    }
  });

  it('lets another instance take a job over once the lease of a run that died expires', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = (await createContextStore({ dataDir: dir, file: 'jobs.db' })) as SqlContextStore;
    const jobs = new ReplicationJobs(store.driver, () => now);
    await jobs.add('connector-1');
    expect(await jobs.claim('connector-1', 'instance-a', 60_000)).toBe(true);
    // Instance A dies holding the lease: nobody else may run the job until it expires.
    expect(await jobs.claim('connector-1', 'instance-b', 60_000)).toBe(false);
    expect(await jobs.requestNow('connector-1')).toBe(false);
    now += 61_000;
    expect(await jobs.due(10)).toEqual(['connector-1']);
    expect(await jobs.claim('connector-1', 'instance-b', 60_000)).toBe(true);
    // A's late renewal finds the job taken.
    expect(await jobs.renew('connector-1', 'instance-a', 60_000)).toBe(false);
    await jobs.finish('connector-1', 'instance-b', { nextRunInMs: 3_600_000 });
    const job = await jobs.get('connector-1');
    expect(job?.status).toBe('ready');
    expect(job?.lease_owner).toBeNull();
    expect(Date.parse(job!.next_run_at)).toBe(now + 3_600_000);
    await store.close();
  });

  it('runs again at once after a run during which the connector changed; a restart takes the job from the run', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = (await createContextStore({ dataDir: dir, file: 'rerun.db' })) as SqlContextStore;
    const jobs = new ReplicationJobs(store.driver, () => now);
    await jobs.add('connector-2');
    expect(await jobs.claim('connector-2', 'instance-a', 60_000)).toBe(true);
    // New settings while A runs with the old ones: A finishes, and the job is due at once, not in an hour.
    await jobs.requestRerun('connector-2');
    now += 5_000;
    await jobs.finish('connector-2', 'instance-a', { nextRunInMs: 3_600_000 });
    expect(Date.parse((await jobs.get('connector-2'))!.next_run_at)).toBe(now);
    expect(await jobs.claim('connector-2', 'instance-a', 60_000)).toBe(true);
    await jobs.finish('connector-2', 'instance-a', { nextRunInMs: 3_600_000 });
    expect(Date.parse((await jobs.get('connector-2'))!.next_run_at)).toBe(now + 3_600_000);
    // A restart (the stored records were cleared) takes the job from a run in progress: its renewal fails.
    now += 3_600_000;
    expect(await jobs.claim('connector-2', 'instance-a', 60_000)).toBe(true);
    await jobs.restart('connector-2');
    expect(await jobs.renew('connector-2', 'instance-a', 60_000)).toBe(false);
    expect(await jobs.get('connector-2')).toMatchObject({ status: 'pending', lease_owner: null });
    expect(await jobs.due(10)).toEqual(['connector-2']);
    await store.close();
  });
});
