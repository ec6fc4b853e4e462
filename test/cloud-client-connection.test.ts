import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiConnection,
  CloudWorkspace,
  ConnectionSyncError,
  ConnectionSyncTimeoutError,
  JobStatus,
  MissingResourceError,
  NoopError,
  type SyncProgress,
  SyncResult,
  WorkspaceMismatchError,
} from '../core/cloud-client/index.ts';
import { type FakeApiState, OTHER_WORKSPACE_ID, seedConnection, serveFakeApi, WORKSPACE_ID } from './helpers/cloud-fake-api.ts';
import { FakeCloudServer } from './helpers/cloud-fake-server.ts';

/** CloudConnection and SyncResult against a fake public API: status transitions, jobs and their order, waiting. */

describe('CloudConnection and SyncResult', () => {
  let fake: FakeCloudServer;
  let state: FakeApiState;
  let workspace: CloudWorkspace;
  let seeded: ApiConnection;

  beforeAll(async () => {
    fake = await FakeCloudServer.start();
    state = serveFakeApi(fake);
    fake.validTokens.add('fixed-token');
    workspace = new CloudWorkspace({ workspaceId: WORKSPACE_ID, bearerToken: 'fixed-token', apiRoot: fake.apiRoot });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    state.jobs.length = 0;
    seeded = seedConnection(state, { connection: 'chat sync' });
  });

  const patches = () => fake.apiRequests().filter((request) => request.method === 'PATCH');

  it('reads enabled fresh every time and moves between active and inactive', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    expect(await connection.isEnabled()).toBe(true);
    state.connections.get(seeded.connectionId)!.status = 'inactive';
    expect(await connection.isEnabled()).toBe(false);

    await connection.setEnabled(true);
    expect(patches().map((request) => request.body)).toEqual([{ status: 'active' }]);
    expect(await connection.isEnabled()).toBe(true);
    await connection.setEnabled(false);
    expect(state.connections.get(seeded.connectionId)!.status).toBe('inactive');

    // The same state again: silent by default, NoopError when told not to ignore it; nothing is sent.
    await connection.setEnabled(false);
    await expect(connection.setEnabled(false, { ignoreNoop: false })).rejects.toBeInstanceOf(NoopError);
    expect(patches()).toHaveLength(2);
    await connection.setEnabled(true, { ignoreNoop: false });
    expect(patches()).toHaveLength(3);
  });

  it('changes schedule, name, streams and prefix, answering the connection refreshed', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    expect(await connection.setSchedule('0 0 12 * * ? UTC')).toBe(connection);
    expect(state.connections.get(seeded.connectionId)!.schedule).toEqual({ scheduleType: 'cron', cronExpression: '0 0 12 * * ? UTC' });
    await connection.setManualSchedule();
    expect(state.connections.get(seeded.connectionId)!.schedule).toEqual({ scheduleType: 'manual' });
    await connection.rename('renamed');
    await connection.setSelectedStreams(['channels']);
    await connection.setTablePrefix('t_');
    const before = fake.requests.length;
    expect([await connection.name(), await connection.streamNames(), await connection.tablePrefix()]).toEqual(['renamed', ['channels'], 't_']);
    expect(fake.requests.length).toBe(before);
    expect(patches().map((request) => request.body)).toEqual([
      { schedule: { scheduleType: 'cron', cronExpression: '0 0 12 * * ? UTC' } },
      { schedule: { scheduleType: 'manual' } },
      { name: 'renamed' },
      { configurations: { streams: [{ name: 'channels' }] } },
      { prefix: 't_' },
    ]);
  });

  it('checks it is valid: missing, or in another workspace', async () => {
    expect(await workspace.getConnection(seeded.connectionId).checkIsValid()).toBe(true);
    await expect(workspace.getConnection('gone').checkIsValid()).rejects.toBeInstanceOf(MissingResourceError);
    const foreign = seedConnection(state, { workspaceId: OTHER_WORKSPACE_ID });
    await expect(workspace.getConnection(foreign.connectionId).checkIsValid()).rejects.toBeInstanceOf(WorkspaceMismatchError);
  });

  it('answers no sync result before the first job, then the newest; logs newest or oldest first', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    expect(await connection.getSyncResult()).toBeNull();
    expect(await connection.getPreviousSyncLogs()).toEqual([]);
    for (let i = 0; i < 25; i++) await connection.runSync({ wait: false });
    state.jobs.push({ ...state.jobs[0]!, jobId: 99, jobType: 'reset' });
    const newest = await connection.getSyncResult();
    expect(newest).toBeInstanceOf(SyncResult);
    expect(newest!.jobId).toBe(25);
    expect(newest!.tableNamePrefix).toBe('p_');
    expect((await connection.getSyncResult(3))!.jobId).toBe(3);
    await expect(connection.getSyncResult(1234)).rejects.toBeInstanceOf(MissingResourceError);
    const other = seedConnection(state);
    const otherJob = await workspace.getConnection(other.connectionId).runSync({ wait: false });
    await expect(connection.getSyncResult(otherJob.jobId)).rejects.toThrow(/not a job of connection/);
    state.jobs.pop();

    const tail = await connection.getPreviousSyncLogs();
    expect(tail.map((result) => result.jobId)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    const head = await connection.getPreviousSyncLogs({ fromTail: false, limit: 5, offset: 2 });
    expect(head.map((result) => result.jobId)).toEqual([3, 4, 5, 6, 7]);
    expect(
      fake
        .apiRequests()
        .filter((request) => request.method === 'GET' && request.path === '/v1/jobs')
        .every((request) => request.query.get('jobType') === 'sync'),
    ).toBe(true);
    expect(await head[0]!.startTime()).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 2)));
    expect(head[0]!.jobUrl).toBe(connection.jobHistoryUrl);
  });

  it('waits for completion with backoff, reporting progress, then the final status', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    const result = await connection.runSync({ wait: false });
    const job = state.jobs.at(-1)!;
    setTimeout(() => Object.assign(job, { status: 'running', rowsSynced: 10 }), 50);
    setTimeout(() => Object.assign(job, { status: 'succeeded', rowsSynced: 42, bytesSynced: 420 }), 150);
    const progress: SyncProgress[] = [];
    const status = await result.waitForCompletion({ pollInterval: 0.02, maxPollInterval: 0.05, onProgress: (p) => progress.push(p) });
    expect(status).toBe(JobStatus.SUCCEEDED);
    expect(progress.at(-1)).toMatchObject({ jobId: job.jobId, status: JobStatus.SUCCEEDED, recordsSynced: 42, bytesSynced: 420 });
    expect(progress.map((p) => p.status)).toEqual(expect.arrayContaining([JobStatus.PENDING, JobStatus.RUNNING]));
    expect(await result.isJobComplete()).toBe(true);
    // A final job is not fetched again.
    const before = fake.requests.length;
    expect([await result.recordsSynced(), await result.bytesSynced(), await result.getJobStatus()]).toEqual([42, 420, JobStatus.SUCCEEDED]);
    expect(fake.requests.length).toBe(before);
    await result.raiseFailureStatus();
  });

  it('times out (raising or not), raises failures when asked, and stops on abort', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    const stuck = await connection.runSync({ wait: false });
    const timeout = await stuck.waitForCompletion({ waitTimeout: 0.1, pollInterval: 0.02 }).catch((error) => error);
    expect(timeout).toBeInstanceOf(ConnectionSyncTimeoutError);
    expect(timeout).toBeInstanceOf(ConnectionSyncError);
    expect(timeout).toMatchObject({ jobId: stuck.jobId, jobStatus: 'pending', connectionId: seeded.connectionId, workspaceId: WORKSPACE_ID });
    expect(await stuck.waitForCompletion({ waitTimeout: 0.05, pollInterval: 0.02, raiseTimeout: false })).toBe(JobStatus.PENDING);
    expect(await stuck.isJobComplete()).toBe(false);

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop waiting')), 60);
    await expect(stuck.waitForCompletion({ pollInterval: 1, signal: controller.signal })).rejects.toThrow('stop waiting');
    await expect(stuck.waitForCompletion({ signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow('already');

    Object.assign(state.jobs.at(-1)!, { status: 'failed' });
    expect(await stuck.waitForCompletion({ pollInterval: 0.02 })).toBe(JobStatus.FAILED);
    await expect(stuck.waitForCompletion({ raiseFailure: true })).rejects.toBeInstanceOf(ConnectionSyncError);
    await expect(stuck.raiseFailureStatus()).rejects.toThrow(/failed/);

    // runSync waits by default and raises a failure; the job's status is mapped from the API's spelling.
    const failing = connection.runSync({ waitTimeout: 5 });
    setTimeout(() => Object.assign(state.jobs.at(-1)!, { status: 'cancelled' }), 30);
    await expect(failing).rejects.toMatchObject({ jobStatus: JobStatus.CANCELLED });
    const incomplete = await connection.runSync({ wait: false });
    Object.assign(state.jobs.at(-1)!, { status: 'incomplete' });
    expect(await incomplete.getJobStatus()).toBe(JobStatus.INCOMPLETE);
    expect(await incomplete.isJobComplete()).toBe(false);
  });

  it('answers null artifacts for a missing connection and an empty state', async () => {
    const connection = workspace.getConnection(seeded.connectionId);
    expect(await connection.getCatalogArtifact()).toEqual({ streams: [{ stream: { name: 'users' }, config: { selected: true } }] });
    expect(await workspace.getConnection('gone').getCatalogArtifact()).toBeNull();
    expect(await connection.getStateArtifacts()).toBeNull();
    expect(
      fake
        .apiRequests()
        .filter((request) => request.path.startsWith('/api/v1/'))
        .map((request) => request.path),
    ).toEqual(['/api/v1/web_backend/connections/get', '/api/v1/web_backend/connections/get', '/api/v1/state/get']);
  });

  it('reads a destination with the secrets the API masks: per destination from the workspace, or per call', async () => {
    const destination = state.destinations.get(seeded.destinationId)!;
    destination.destinationType = 'postgres';
    destination.configuration = {
      destinationType: 'postgres',
      host: '127.0.0.1',
      port: 1,
      database: 'lake',
      schema: 'sync',
      username: 'u',
      password: '**********',
    };
    const masked = await workspace.getConnection(seeded.connectionId).runSync({ wait: false });
    await expect(masked.getSqlDatabaseName()).rejects.toThrow(/options\.secrets\.password/);

    const withSecrets = new CloudWorkspace({
      workspaceId: WORKSPACE_ID,
      bearerToken: 'fixed-token',
      apiRoot: fake.apiRoot,
      destinationSecrets: { [seeded.destinationId]: { password: 'pw' } },
    });
    const result = (await withSecrets.getConnection(seeded.connectionId).getSyncResult())!;
    try {
      expect(await result.getSqlDatabaseName()).toBe('lake');
      expect(await result.getSqlSchemaName()).toBe('sync');
      expect(await result.getSqlTableName('users')).toBe('p_users');
    } finally {
      await result.close();
    }
    const perCall = (await workspace.getConnection(seeded.connectionId).getSyncResult())!;
    try {
      expect(await perCall.getSqlSchemaName({ secrets: { password: 'pw' } })).toBe('sync');
    } finally {
      await perCall.close();
    }
    destination.destinationType = 'bigquery';
    destination.configuration = { destinationType: 'bigquery' };
    const unreadable = (await workspace.getConnection(seeded.connectionId).getSyncResult())!;
    await expect(unreadable.getSqlEngine()).rejects.toThrow(/not supported/);
  });
});
