import { NotFoundError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import type { JobFilter, JobStatus, JobType, ProgressSample, SyncAttempt, SyncJob, SyncJobs } from '../sync/sync-jobs.ts';
import type { ConfigJobInfo, PublicJob, PublicJobCreateRequest, PublicJobProgress } from '../types.generated.ts';
import { readableWorkspaces, requireWorkspace } from '../permissions/request-access.ts';
import type { ClearJobs } from './clear-jobs.ts';
import type { PublicPage } from './public-workspaces.ts';

/** Finds a connection for an organization: its workspace, or a 404 when it is not the organization's. */
export interface ConnectionLookup {
  workspaceOf(organizationId: string, connectionId: string): Promise<string>;
}

export interface JobListFilter extends Omit<JobFilter, 'workspaceIds' | 'jobType' | 'status'> {
  workspaceIds?: string[];
  jobType?: PublicJobCreateRequest['jobType'];
  status?: string;
}

/**
 * Jobs through the public cloud API (and the config API's jobs/get): created for a connection of
 * the caller's organization, run by the sync worker, listed and cancelled. Another organization's
 * job is not found.
 */
export class PublicJobs {
  constructor(
    private readonly jobs: SyncJobs,
    private readonly store: Store,
    private readonly connections: ConnectionLookup,
    /** Tells the worker a job is waiting. */
    private readonly jobAdded: () => void,
    /** Which resets were asked for as `clear`. */
    private readonly clears: ClearJobs,
    private readonly clock: () => number = Date.now,
  ) {}

  async create(organizationId: string, input: PublicJobCreateRequest): Promise<PublicJob> {
    const workspaceId = await this.connections.workspaceOf(organizationId, input.connectionId.toLowerCase());
    const job = await this.jobs.create(input.connectionId.toLowerCase(), workspaceId, jobTypeOf(input.jobType));
    // Marked before the worker hears of it, so no answer names it otherwise.
    if (input.jobType === 'clear') await this.clears.mark(job.id);
    this.jobAdded();
    return this.toPublic(job, input.jobType === 'clear');
  }

  async get(organizationId: string, id: string): Promise<PublicJob> {
    return this.answer(await this.find(organizationId, id));
  }

  /**
   * Cancels it and answers it cancelled: a waiting job is at once; a running one stops at its next
   * step, and ends cancelled whatever it does meanwhile (the worker honours a cancellation asked for
   * until its very end). A finished job stays as it ended.
   */
  async cancel(organizationId: string, id: string): Promise<PublicJob> {
    const job = await this.find(organizationId, id);
    const after = (await this.jobs.cancel(job.id)) ?? job;
    const answer = await this.answer(after);
    return after.status === 'running' && after.cancel_requested === 1 ? { ...answer, status: 'cancelled' } : answer;
  }

  async list(organizationId: string, filter: JobListFilter): Promise<PublicPage<PublicJob>> {
    if (filter.connectionId !== undefined) await this.connections.workspaceOf(organizationId, filter.connectionId);
    const own = (await this.store.listWorkspaces(organizationId, { limit: 100_000, offset: 0 })).map((workspace) => workspace.id);
    const readable = readableWorkspaces(filter.workspaceIds);
    const workspaceIds = readable === undefined ? own : readable.filter((id) => own.includes(id));
    // "queued" is a status this engine never gives: nothing matches it.
    if (filter.status === 'queued') return { items: [], more: false };
    const { jobType, status, ...rest } = filter;
    const rows = await this.jobs.list({
      ...rest,
      workspaceIds,
      ...(jobType !== undefined ? { jobType: jobTypeOf(jobType) } : {}),
      ...(status !== undefined ? { status: status as JobStatus } : {}),
    });
    const page = rows.slice(0, filter.limit);
    const clears = await this.clears.among(page.map((job) => job.id));
    return { items: page.map((job) => this.toPublic(job, clears.has(job.id))), more: rows.length > filter.limit };
  }

  /** Its totals over its run, the rates between them, and the previous successful run of its connection to measure it against. */
  async progress(organizationId: string, id: string): Promise<PublicJobProgress> {
    const job = await this.find(organizationId, id);
    const previous = await this.jobs.previousRun(job);
    const start: ProgressSample[] = job.started_at ? [{ at: job.started_at, rows_synced: 0, bytes_synced: 0 }] : [];
    return {
      jobId: job.id,
      status: job.status,
      startedAt: job.started_at,
      samples: withRates([...start, ...(await this.jobs.progressSamples(job.id))]),
      previousRun: previous
        ? {
            jobId: previous.id,
            records: previous.rows_synced,
            bytes: previous.bytes_synced,
            durationSeconds: (Date.parse(previous.ended_at ?? previous.updated_at) - Date.parse(previous.started_at ?? previous.created_at)) / 1000,
          }
        : null,
    };
  }

  /**
   * The config API's view: the job with each attempt's counts, failure and log lines; with
   * `logOffsets`, each attempt's lines after those the caller already holds (a growing log is read by parts).
   */
  async info(organizationId: string, id: number, logOffsets: readonly number[] = []): Promise<ConfigJobInfo> {
    const job = await this.find(organizationId, String(id));
    const attempts = await this.jobs.attempts(job.id);
    return {
      job: {
        id: job.id,
        configType: CONFIG_TYPES[job.job_type],
        configId: job.connection_id,
        createdAt: seconds(job.created_at),
        updatedAt: seconds(job.updated_at),
        ...(job.started_at ? { startedAt: seconds(job.started_at) } : {}),
        status: job.status,
        aggregatedStats: {
          recordsEmitted: job.rows_synced,
          bytesEmitted: job.bytes_synced,
          recordsCommitted: job.rows_synced,
          bytesCommitted: job.bytes_synced,
          recordsRejected: 0,
        },
      },
      attempts: attempts.map((attempt, index) => attemptInfo(attempt, logOffsets[index] ?? 0)),
    };
  }

  private async find(organizationId: string, id: string): Promise<SyncJob> {
    const job = /^[1-9][0-9]{0,15}$/.test(id) ? await this.jobs.get(Number(id)) : undefined;
    const workspace = job && (await this.store.getWorkspace(job.workspace_id));
    if (!job || workspace?.organization_id !== organizationId) throw new NotFoundError(`Job ${id} not found`, 'job_not_found');
    requireWorkspace(workspace.id);
    return job;
  }

  private async answer(job: SyncJob): Promise<PublicJob> {
    return this.toPublic(job, (await this.clears.among([job.id])).has(job.id));
  }

  /** `clear`: it was asked for by that name (it runs as a reset). */
  private toPublic(job: SyncJob, clear: boolean): PublicJob {
    const end = job.ended_at ? Date.parse(job.ended_at) : this.clock();
    return {
      jobId: job.id,
      status: job.status,
      jobType: clear ? 'clear' : job.job_type,
      startTime: job.created_at,
      connectionId: job.connection_id,
      lastUpdatedAt: job.updated_at,
      duration: isoDuration(end - Date.parse(job.created_at)),
      bytesSynced: job.bytes_synced,
      rowsSynced: job.rows_synced,
    };
  }
}

/** `clear` is the newer name of `reset`: the sync engine runs both alike (a list narrowed to either finds both). */
function jobTypeOf(given: PublicJobCreateRequest['jobType']): JobType {
  return given === 'clear' ? 'reset' : given;
}

const CONFIG_TYPES = { sync: 'sync', reset: 'reset_connection', refresh: 'refresh' } as const satisfies Record<JobType, ConfigJobInfo['job']['configType']>;

/** Each sample with the records and bytes a second written since the one before (a retry's restart is no negative rate). */
function withRates(samples: ProgressSample[]): PublicJobProgress['samples'] {
  return samples.map((sample, index) => {
    const before = samples[index - 1];
    const elapsed = before ? (Date.parse(sample.at) - Date.parse(before.at)) / 1000 : 0;
    const rate = (now: number, then: number) => (elapsed > 0 ? Math.max(0, now - then) / elapsed : 0);
    return {
      at: sample.at,
      records: sample.rows_synced,
      bytes: sample.bytes_synced,
      recordsPerSecond: before ? rate(sample.rows_synced, before.rows_synced) : 0,
      bytesPerSecond: before ? rate(sample.bytes_synced, before.bytes_synced) : 0,
    };
  });
}

function seconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** `PT1H2M3S`, as Airbyte answers a job's duration. */
export function isoDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return `PT${h > 0 ? `${h}H` : ''}${m > 0 ? `${m}M` : ''}${s > 0 || (h === 0 && m === 0) ? `${s}S` : ''}`;
}

function attemptInfo(attempt: SyncAttempt, logOffset: number): ConfigJobInfo['attempts'][number] {
  return {
    attempt: {
      id: attempt.attempt_number - 1,
      // The config API knows no cancelled attempt: it did not succeed.
      status: attempt.status === 'cancelled' ? 'failed' : attempt.status,
      createdAt: seconds(attempt.created_at),
      updatedAt: seconds(attempt.updated_at),
      ...(attempt.ended_at ? { endedAt: seconds(attempt.ended_at) } : {}),
      bytesSynced: attempt.bytes_synced,
      recordsSynced: attempt.rows_synced,
      ...(attempt.failure
        ? {
            failureSummary: {
              failures: [{ failureOrigin: 'source', externalMessage: attempt.failure, timestamp: seconds(attempt.ended_at ?? attempt.updated_at) }],
              partialSuccess: attempt.rows_synced > 0,
            },
          }
        : {}),
    },
    logType: 'formatted',
    logs: {
      logLines: attempt.log
        .split('\n')
        .filter((line) => line !== '')
        .slice(logOffset),
    },
  };
}
