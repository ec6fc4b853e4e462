import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { slackSourceConfiguration } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { compileOperations, publicApiCalls, publicAccessToken, settledJob } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';
import { DESTINATION_TYPES, testDestination, type TestDestination } from './helpers/sync-destinations.ts';

/**
 * Jobs of the public cloud API end to end, against Airbyte's official description (every request and
 * answer checked against api_sdk.yaml, jobs/get against config.yaml): a sync job moves the chat
 * sandbox into each destination, jobs are listed, filtered, cancelled and scheduled by cron, and a
 * job survives a restart of the server.
 */

const spec = PublicApiSpec.load();
const OPERATIONS = [
  'post /sources',
  'post /destinations',
  'post /connections',
  'patch /connections/{connectionId}',
  'post /jobs',
  'get /jobs',
  'get /jobs/{jobId}',
];

const slack = slackSourceConfiguration;

describe.each(BACKENDS)('public cloud API jobs on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let workspaceId: string;
  let sourceId: string;
  const answers: Answer[] = [];
  const destinations: TestDestination[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'jobs-ws' } })).body.workspaceId;
    sourceId = (await call('post', '/sources', '/sources', { body: { name: 'team slack', workspaceId, configuration: slack() } })).body.sourceId;
  });
  afterAll(async () => {
    await fx?.close();
    for (const destination of destinations) await destination.drop();
  });

  async function connection(destinationType: (typeof DESTINATION_TYPES)[number] = 'sqlite', body: Record<string, unknown> = {}) {
    const destination = await testDestination(destinationType, workspaceDataDir(fx.dataDir, workspaceId));
    destinations.push(destination);
    const created = await call('post', '/destinations', '/destinations', {
      body: { name: `${destinationType} destination`, workspaceId, configuration: destination.configuration },
      extension: destinationType === 'sqlite',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const answer = await call('post', '/connections', '/connections', {
      body: { sourceId, destinationId: created.body.destinationId, prefix: 'slack_', ...body },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { connectionId: answer.body.connectionId as string, destination };
  }

  const settled = (jobId: number) => settledJob(call, jobId);

  it.each(DESTINATION_TYPES)('a sync job moves every stream of the chat source into %s', async (destinationType) => {
    const { connectionId, destination } = await connection(destinationType);
    const started = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ connectionId, jobType: 'sync', status: 'pending', rowsSynced: 0 });
    expect(Number.isInteger(started.body.jobId)).toBe(true);
    const done = await settled(started.body.jobId);
    expect(done.status).toBe('succeeded');
    expect(done.duration).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
    const tables = await destination.tables();
    expect(tables).toEqual(expect.arrayContaining(['slack_users', 'slack_channels', 'slack_channel_messages', 'slack_threads']));
    let rows = 0;
    for (const table of ['slack_users', 'slack_channels', 'slack_channel_messages', 'slack_threads']) rows += (await destination.rows(table)).length;
    expect(done.rowsSynced).toBe(rows);
    expect((await destination.rows('slack_users')).length).toBe(fx.chatSandbox.data.users.length);
    expect(done.bytesSynced).toBeGreaterThan(rows * 10);

    const info = await call('post', '/v1/jobs/get', '/v1/jobs/get', { prefix: 'api', body: { id: done.jobId } });
    expect(info.status).toBe(200);
    expect(info.body.job).toMatchObject({ id: done.jobId, configType: 'sync', configId: connectionId, status: 'succeeded' });
    expect(info.body.attempts).toHaveLength(1);
    expect(info.body.attempts[0].attempt).toMatchObject({ id: 0, status: 'succeeded', recordsSynced: rows });
    expect(info.body.attempts[0].logs.logLines.join('\n')).toContain('slack_channel_messages');
  });

  it('a refresh job reads every stream again from its start; it is listed and described as a refresh', async () => {
    const { connectionId, destination } = await connection('sqlite', {
      configurations: { streams: [{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }] },
    });
    const sync = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
    expect((await settled(sync.body.jobId)).status).toBe('succeeded');
    const rows = (await destination.rows('slack_channel_messages')).length;
    const started = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'refresh' } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ connectionId, jobType: 'refresh', status: 'pending' });
    const done = await settled(started.body.jobId);
    // An incremental sync now would read nothing new; the refresh wrote every row again.
    expect([done.status, done.rowsSynced]).toEqual(['succeeded', rows]);
    const listed = await call('get', '/jobs', `/jobs?connectionId=${connectionId}&jobType=refresh`);
    expect(listed.body.data.map((job: { jobId: number }) => job.jobId)).toEqual([done.jobId]);
    const info = await call('post', '/v1/jobs/get', '/v1/jobs/get', { prefix: 'api', body: { id: done.jobId } });
    expect(info.body.job).toMatchObject({ id: done.jobId, configType: 'refresh', status: 'succeeded' });
  });

  it('lists jobs newest first (or oldest), filtered and paged; refuses a second live job; cancels', async () => {
    const { connectionId } = await connection('sqlite', { configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] } });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
      ids.push(job.body.jobId);
      expect((await settled(job.body.jobId)).status).toBe('succeeded');
    }
    const newest = await call('get', '/jobs', `/jobs?connectionId=${connectionId}&limit=2`);
    expect(newest.body.data.map((job: { jobId: number }) => job.jobId)).toEqual([ids[2], ids[1]]);
    expect(newest.body.next).toContain('offset=2');
    const rest = await call('get', '/jobs', `/jobs?connectionId=${connectionId}&limit=2&offset=2`);
    expect(rest.body.data.map((job: { jobId: number }) => job.jobId)).toEqual([ids[0]]);
    expect(rest.body.next).toBeUndefined();
    expect(rest.body.previous).toContain('offset=0');
    const oldest = await call('get', '/jobs', `/jobs?connectionId=${connectionId}&orderBy=createdAt|ASC`);
    expect(oldest.body.data.map((job: { jobId: number }) => job.jobId)).toEqual(ids);
    expect((await call('get', '/jobs', `/jobs?connectionId=${connectionId}&status=failed`)).body.data).toEqual([]);
    expect((await call('get', '/jobs', `/jobs?workspaceIds=${workspaceId}&jobType=sync`)).body.data.length).toBeGreaterThanOrEqual(3);

    // The same routes answer under /api/public/v1, where clients derive the config API's root from.
    const viaPublic = await call('post', '/jobs', '/jobs', { prefix: 'api/public/v1', body: { connectionId, jobType: 'sync' } });
    expect(viaPublic.status).toBe(200);
    expect((await call('get', '/jobs/{jobId}', `/jobs/${viaPublic.body.jobId}`, { prefix: 'api/public/v1' })).body.jobId).toBe(viaPublic.body.jobId);
    await settled(viaPublic.body.jobId);
    expect((await call('get', '/jobs', `/jobs?connectionId=${connectionId}`, { prefix: 'api/public/v1' })).body.data).toHaveLength(4);
    expect((await call('delete', '/jobs/{jobId}', `/jobs/${viaPublic.body.jobId}`, { prefix: 'api/public/v1' })).body.status).toBe('succeeded');
    // A finished job stays as it ended.
    expect((await call('delete', '/jobs/{jobId}', `/jobs/${ids[0]}`)).body.status).toBe('succeeded');
    const reset = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'reset' } });
    const second = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
    if (second.status === 409) expect(second.body.detail).toMatch(/already has a job/);
    const cancelled = await call('delete', '/jobs/{jobId}', `/jobs/${reset.body.jobId}`);
    expect(cancelled.status).toBe(200);
    expect(['cancelled', 'succeeded', 'running']).toContain(cancelled.body.status);
    await settled(reset.body.jobId);
  });

  it("keeps each workspace's file destinations apart: the same destination_path in another workspace is another file", async () => {
    const path = `/local/shared-${Math.random().toString(36).slice(2)}.sqlite`;
    const streams = { configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] } };
    const mine = await call('post', '/destinations', '/destinations', {
      body: { name: 'mine', workspaceId, configuration: { destinationType: 'sqlite', destination_path: path } },
      extension: true,
    });
    const mineConnection = await call('post', '/connections', '/connections', {
      body: { sourceId, destinationId: mine.body.destinationId, prefix: 'p_', ...streams },
    });
    expect(
      (await settled((await call('post', '/jobs', '/jobs', { body: { connectionId: mineConnection.body.connectionId, jobType: 'sync' } })).body.jobId)).status,
    ).toBe('succeeded');
    const other = (await call('post', '/workspaces', '/workspaces', { body: { name: `other-${Math.random()}` } })).body.workspaceId as string;
    const otherSource = await call('post', '/sources', '/sources', { body: { name: 'slack', workspaceId: other, configuration: slack() } });
    const theirs = await call('post', '/destinations', '/destinations', {
      body: { name: 'theirs', workspaceId: other, configuration: { destinationType: 'sqlite', destination_path: path } },
      extension: true,
    });
    const theirConnection = await call('post', '/connections', '/connections', {
      body: { sourceId: otherSource.body.sourceId, destinationId: theirs.body.destinationId, prefix: 'p_', ...streams },
    });
    expect(
      (await settled((await call('post', '/jobs', '/jobs', { body: { connectionId: theirConnection.body.connectionId, jobType: 'reset' } })).body.jobId))
        .status,
    ).toBe('succeeded');
    const file = (workspace: string) => join(workspaceDataDir(fx.dataDir, workspace), path);
    expect(existsSync(file(workspaceId))).toBe(true);
    const db = new Database(file(workspaceId), { readonly: true });
    try {
      expect((db.prepare('SELECT count(*) AS n FROM p_users').get() as { n: number }).n).toBe(fx.chatSandbox.data.users.length);
    } finally {
      db.close();
    }
  });

  it('answers 404 for unknown jobs and connections, 400 for bad input', async () => {
    expect((await call('get', '/jobs/{jobId}', '/jobs/987654')).status).toBe(404);
    expect((await call('get', '/jobs/{jobId}', '/jobs/not-a-number')).status).toBe(404);
    expect((await call('delete', '/jobs/{jobId}', '/jobs/987654')).status).toBe(404);
    expect((await call('post', '/jobs', '/jobs', { body: { connectionId: '00000000-0000-4000-8000-000000000000', jobType: 'sync' } })).status).toBe(404);
    const bad = await fx.http.post('v1/jobs', { headers: { authorization: `Bearer ${token}` }, json: { connectionId: 'x', jobType: 'explode' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await call('get', '/jobs', '/jobs?orderBy=name|SIDEWAYS')).status).toBe(400);
    // A leap second passes the date-time format, but no clock has it.
    expect((await call('get', '/jobs', '/jobs?createdAtStart=2016-12-31T23:59:60Z')).status).toBe(400);
    expect((await call('get', '/jobs', '/jobs?orderBy=updatedAt|ASC&updatedAtStart=2020-01-01T00:00:00Z')).status).toBe(200);
    const config = await fx.http.post('api/v1/jobs/get', { headers: { authorization: `Bearer ${token}` }, json: { id: 987654 } });
    expect(config.statusCode).toBe(404);
    expect(JSON.parse(config.body)).toMatchObject({ message: expect.stringContaining('987654') });
  });

  it('fires a cron schedule, once per tick, until the connection is made inactive', async () => {
    const { connectionId } = await connection('sqlite', {
      configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] },
      schedule: { scheduleType: 'cron', cronExpression: '0/1 * * * * ?' },
    });
    let jobs: { jobId: number; status: string }[] = [];
    for (let i = 0; i < 200 && jobs.length < 2; i++) {
      jobs = (await call('get', '/jobs', `/jobs?connectionId=${connectionId}`)).body.data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    await call('patch', '/connections/{connectionId}', `/connections/${connectionId}`, { body: { status: 'inactive' } });
    for (const job of jobs) await settled(job.jobId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = (await call('get', '/jobs', `/jobs?connectionId=${connectionId}`)).body.data.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call('get', '/jobs', `/jobs?connectionId=${connectionId}`)).body.data.length).toBe(count);
  });

  it('a job created before a restart runs after it', async () => {
    const { connectionId } = await connection('sqlite', {
      configurations: { streams: [{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }] },
    });
    const job = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
    await fx.restart();
    token = await publicAccessToken(fx);
    expect((await settled(job.body.jobId)).status).toBe('succeeded');
  });

  // Last of the job tests: one instance's worker is stopped at its end.
  it.runIf(backend === 'postgres')(
    'two instances on one PostgreSQL share the jobs: each runs once, a cron tick fires once, and a stopping instance hands its job over',
    async () => {
      const other = await fx.startAnotherServer();
      const started = () =>
        fx.logs
          .flatMap((line) => line.split('\n'))
          .filter((line) => line.includes('"sync_attempt_started"'))
          .map((line) => JSON.parse(line) as { job_id: number; worker: string });
      const jobIds: number[] = [];
      for (let i = 0; i < 6; i++) {
        const { connectionId } = await connection('sqlite', { configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] } });
        jobIds.push((await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } })).body.jobId);
      }
      for (const id of jobIds) expect((await settled(id)).status).toBe('succeeded');
      const attempts = started().filter((event) => jobIds.includes(event.job_id));

      // A cron connection on two instances: each tick fires once across them.
      const cron = await connection('sqlite', {
        configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] },
        schedule: { scheduleType: 'cron', cronExpression: '0/1 * * * * ?' },
      });
      await new Promise((resolve) => setTimeout(resolve, 3500));
      await call('patch', '/connections/{connectionId}', `/connections/${cron.connectionId}`, { body: { status: 'inactive' } });
      const fired = (await call('get', '/jobs', `/jobs?connectionId=${cron.connectionId}&limit=100`)).body.data as { jobId: number; startTime: string }[];
      expect(fired.length).toBeGreaterThanOrEqual(2);
      const ticks = fired.map((job) => job.startTime.slice(0, 19));
      expect(new Set(ticks).size).toBe(ticks.length);
      for (const job of fired) await settled(job.jobId);
      // Each job ran exactly once, on one instance or the other.
      expect(attempts.map((event) => event.job_id).sort((a, b) => a - b)).toEqual([...jobIds].sort((a, b) => a - b));
      const workers = new Set([fx.server.hosted.syncWorker.id, other.hosted.syncWorker.id]);
      for (const event of attempts) expect(workers.has(event.worker)).toBe(true);

      // A job held up by rate limits, on whichever instance took it; that instance stops; the other finishes it.
      const { connectionId } = await connection('sqlite', { configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] } });
      fx.chatSandbox.addFault({ method: 'users.list', status: 429, retryAfter: 1, count: 6 });
      const slow = (await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } })).body.jobId as number;
      let first: { worker: string } | undefined;
      for (let i = 0; i < 200 && !first; i++) {
        first = started().find((event) => event.job_id === slow);
        if (!first) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const holder = first!.worker === other.hosted.syncWorker.id ? other : fx.server;
      const survivor = holder === other ? fx.server : other;
      // The holding instance shuts its worker down (as on a deploy): the job is let go at once, not after its lease.
      await holder.hosted.syncWorker.stop();
      const done = await settled(slow);
      expect(done.status).toBe('succeeded');
      const runs = started().filter((event) => event.job_id === slow);
      expect(runs.map((event) => event.worker)).toEqual([holder.hosted.syncWorker.id, survivor.hosted.syncWorker.id]);
    },
    // Two servers, a cron window and a rate-limited sync: longer than the default.
    60_000,
  );

  it("another organization's token finds no job", async () => {
    const job = (await call('get', '/jobs', '/jobs?limit=1')).body.data[0];
    const other = await fx.server.hosted.applications.create('another organization');
    const otherToken = await publicAccessToken(fx, other);
    expect((await call('get', '/jobs/{jobId}', `/jobs/${job.jobId}`, { token: otherToken })).status).toBe(404);
    expect((await call('get', '/jobs', '/jobs', { token: otherToken })).body.data).toEqual([]);
  });

  it('answers as its own /openapi.json declares, every job operation with a 2xx at least once', async () => {
    // The progress route is this server's own (the console's throughput chart): called here under both prefixes.
    const job = (await call('get', '/jobs', '/jobs?limit=1')).body.data[0];
    for (const prefix of ['v1', 'api/public/v1']) {
      expect((await fx.http.get(`${prefix}/jobs/${job.jobId}/progress`, { headers: bearer(token) })).statusCode).toBe(200);
    }
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance.operationKeys({ tagged: 'public API' }).filter((key) => /\/jobs/.test(key));
    expect(own.length).toBeGreaterThanOrEqual(9);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
