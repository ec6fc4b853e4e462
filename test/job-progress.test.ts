import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSync } from '../core/hosted/sync/migrate-sync.ts';
import { SAMPLED_JOBS_KEPT, SyncJobs } from '../core/hosted/sync/sync-jobs.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';
import { slackSourceConfiguration } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { plainPublicApi } from './helpers/public-api-calls.ts';

/** GET /v1/jobs/{id}/progress: a sync's totals over its run, their rates, and the previous run of its connection. */
describe.each(BACKENDS)('job progress (%s)', (backend) => {
  let fx: HostedFixture;
  let api: Awaited<ReturnType<typeof plainPublicApi>>;
  let connectionId: string;

  beforeAll(async () => {
    // Slow enough that a sync spans several progress saves (one a second at most).
    fx = await startHostedFixture(backend, { chat: { latencyMs: 100, messagesPerChannel: 800 } });
    api = await plainPublicApi(fx);
    const { workspaceId } = await api.call('post', 'v1/workspaces', { name: 'progress' });
    const { sourceId } = await api.call('post', 'v1/sources', { name: 'slack', workspaceId, configuration: slackSourceConfiguration() });
    const { destinationId } = await api.call('post', 'v1/destinations', { name: 'tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    const streams = {
      streams: [
        { name: 'users', syncMode: 'full_refresh_overwrite' },
        { name: 'channel_messages', syncMode: 'full_refresh_overwrite' },
      ],
    };
    ({ connectionId } = await api.call('post', 'v1/connections', { sourceId, destinationId, name: 'progress', configurations: streams }));
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  });

  it('samples a run from its start to its end, with rates, and measures the next run against it', async () => {
    const first = await api.sync(connectionId);
    expect(first.status).toBe('succeeded');
    const progress = await api.call('get', `v1/jobs/${first.jobId}/progress`);
    expect(progress).toMatchObject({ jobId: first.jobId, status: 'succeeded', previousRun: null });
    const samples = progress.samples as Array<{ at: string; records: number; bytes: number; recordsPerSecond: number; bytesPerSecond: number }>;
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(samples[0]).toMatchObject({ at: progress.startedAt, records: 0, bytes: 0, recordsPerSecond: 0 });
    const job = await api.call('get', `v1/jobs/${first.jobId}`);
    expect(samples.at(-1)).toMatchObject({ records: job.rowsSynced, bytes: job.bytesSynced });
    for (const [index, sample] of samples.entries()) {
      if (index === 0) continue;
      expect(Date.parse(sample.at)).toBeGreaterThanOrEqual(Date.parse(samples[index - 1]!.at));
      expect(sample.records).toBeGreaterThanOrEqual(samples[index - 1]!.records);
    }
    expect(samples.some((sample) => sample.recordsPerSecond > 0 && sample.bytesPerSecond > 0)).toBe(true);

    const second = await api.sync(connectionId);
    const next = await api.call('get', `v1/jobs/${second.jobId}/progress`);
    expect(next.previousRun).toMatchObject({ jobId: first.jobId, records: job.rowsSynced, bytes: job.bytesSynced });
    expect(next.previousRun.durationSeconds).toBeGreaterThan(0);
  });

  it("is another organization's job not found", async () => {
    const other = await fx.server.hosted.applications.create('elsewhere');
    const token = (await fx.http.post('v1/applications/token', { json: other }).json<{ access_token: string }>()).access_token;
    const { data } = await api.call('get', 'v1/jobs');
    expect((await fx.http.get(`v1/jobs/${data[0].jobId}/progress`, { headers: bearer(token) })).statusCode).toBe(404);
  });
});

describe('progress samples kept', () => {
  it("keeps the samples of each connection's newest jobs only", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-samples-'));
    const driver = new SqliteDriver(dataDir, join(dataDir, 'jobs.db'));
    try {
      await migrateSync(driver);
      const jobs = new SyncJobs(driver);
      const ids: number[] = [];
      for (let run = 0; run < SAMPLED_JOBS_KEPT + 2; run++) {
        const job = await jobs.create('connection', 'workspace', 'sync');
        await jobs.recordProgress(job.id, 1, 10, 100);
        await driver.run("UPDATE sync_jobs SET status = 'succeeded' WHERE id = ?", [job.id]);
        ids.push(job.id);
      }
      // Another connection's samples are its own business.
      const other = await jobs.create('other', 'workspace', 'sync');
      await jobs.recordProgress(other.id, 1, 10, 100);
      const sampled = await Promise.all(ids.map(async (id) => (await jobs.progressSamples(id)).length));
      expect(sampled).toEqual([0, 0, ...Array(SAMPLED_JOBS_KEPT).fill(1)]);
      expect(await jobs.progressSamples(other.id)).toHaveLength(1);
    } finally {
      await driver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
