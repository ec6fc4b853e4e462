import { ConflictError } from '../../errors.ts';
import { isUniqueViolation, type SqlDriver, type SqlValue } from '../../stores/sql-driver.ts';

export const JOB_STATUSES = ['pending', 'running', 'incomplete', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Jobs per connection whose progress samples are kept. */
export const SAMPLED_JOBS_KEPT = 20;

/** `refresh`: every selected stream read from its start and swapped in whole. */
export type JobType = 'sync' | 'reset' | 'refresh';

/** A sync, reset or refresh job of a connection, as stored. */
export interface SyncJob {
  id: number;
  connection_id: string;
  workspace_id: string;
  job_type: JobType;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
  rows_synced: number;
  bytes_synced: number;
  attempts: number;
  next_attempt_at: string;
  cancel_requested: number;
  lease_owner: string | null;
  lease_until: string | null;
}

export interface SyncAttempt {
  job_id: number;
  attempt_number: number;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  rows_synced: number;
  bytes_synced: number;
  failure: string | null;
  log: string;
}

/** A job's totals when a progress save was made. */
export interface ProgressSample {
  at: string;
  rows_synced: number;
  bytes_synced: number;
}

export interface JobFilter {
  connectionId?: string;
  workspaceIds?: string[];
  jobType?: JobType;
  status?: JobStatus;
  createdAtStart?: string;
  createdAtEnd?: string;
  updatedAtStart?: string;
  updatedAtEnd?: string;
  orderBy?: 'created_at' | 'updated_at';
  order: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

/** A job's next step, as the worker running it learns on each lease renewal. */
export type LeaseState = 'held' | 'lost' | 'cancel';

/** The most attempts a job gets: the first and two retries. */
export const MAX_ATTEMPTS = 3;
const LIVE = "('pending', 'running', 'incomplete')";
const STOPPED_WORKER = 'the worker running this attempt stopped (its server shut down, or its lease expired)';

/**
 * Durable sync jobs in the cloud API's database. A worker takes a job with one conditional UPDATE
 * (owner and lease expiry), so among instances sharing PostgreSQL exactly one runs it; a job whose
 * worker died (lease expired while running) is taken again as a new attempt, resuming from state.
 */
export class SyncJobs {
  constructor(
    private readonly db: SqlDriver,
    private readonly clock: () => number = Date.now,
    /** Told inside the transaction that ends a job that ran (succeeded, failed, or cancelled while running): its notifications are recorded with it. */
    private readonly ended?: (tx: SqlDriver, jobId: number) => Promise<void>,
  ) {}

  private now(offsetMs = 0): string {
    return new Date(this.clock() + offsetMs).toISOString();
  }

  /** A new pending job; a 409 while the connection has a live one (pending, running or between attempts). */
  async create(connectionId: string, workspaceId: string, jobType: JobType): Promise<SyncJob> {
    const now = this.now();
    try {
      const row = await this.db.get<{ id: number }>(
        `INSERT INTO sync_jobs (connection_id, workspace_id, job_type, status, created_at, updated_at, next_attempt_at)
         VALUES (?, ?, ?, 'pending', ?, ?, ?) RETURNING id`,
        [connectionId, workspaceId, jobType, now, now, now],
      );
      await this.pruneProgressSamples(connectionId);
      return (await this.get(Number(row!.id)))!;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(`Connection ${connectionId} already has a job pending or running`, 'job_already_running');
      }
      throw error;
    }
  }

  async get(id: number): Promise<SyncJob | undefined> {
    return toJob(await this.db.get<SyncJob>('SELECT * FROM sync_jobs WHERE id = ?', [id]));
  }

  /** The connection's pending or running job, if any. */
  async live(connectionId: string): Promise<SyncJob | undefined> {
    return toJob(await this.db.get<SyncJob>(`SELECT * FROM sync_jobs WHERE connection_id = ? AND status IN ${LIVE}`, [connectionId]));
  }

  /** One page of jobs (one more than `limit`, so the caller knows whether a page follows). */
  async list(filter: JobFilter): Promise<SyncJob[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const add = (clause: string, ...values: SqlValue[]) => {
      where.push(clause);
      params.push(...values);
    };
    if (filter.connectionId !== undefined) add('connection_id = ?', filter.connectionId);
    if (filter.workspaceIds !== undefined) add(`workspace_id IN (${filter.workspaceIds.map(() => '?').join(', ') || 'NULL'})`, ...filter.workspaceIds);
    if (filter.jobType !== undefined) add('job_type = ?', filter.jobType);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.createdAtStart !== undefined) add('created_at >= ?', filter.createdAtStart);
    if (filter.createdAtEnd !== undefined) add('created_at <= ?', filter.createdAtEnd);
    if (filter.updatedAtStart !== undefined) add('updated_at >= ?', filter.updatedAtStart);
    if (filter.updatedAtEnd !== undefined) add('updated_at <= ?', filter.updatedAtEnd);
    const rows = await this.db.all<SyncJob>(
      `SELECT * FROM sync_jobs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${filter.orderBy ?? 'created_at'} ${filter.order}, id ${filter.order} LIMIT ? OFFSET ?`,
      [...params, filter.limit + 1, filter.offset],
    );
    return rows.map((row) => toJob(row)!);
  }

  async attempts(jobId: number): Promise<SyncAttempt[]> {
    const rows = await this.db.all<SyncAttempt>('SELECT * FROM sync_attempts WHERE job_id = ? ORDER BY attempt_number', [jobId]);
    return rows.map((row) => ({ ...row, job_id: Number(row.job_id), rows_synced: Number(row.rows_synced), bytes_synced: Number(row.bytes_synced) }));
  }

  /** Jobs a worker may take now: due and waiting, or running under a lease that expired (their worker died). */
  async runnable(limit: number): Promise<number[]> {
    const now = this.now();
    const rows = await this.db.all<{ id: number }>(
      `SELECT id FROM sync_jobs WHERE (status IN ('pending', 'incomplete') AND next_attempt_at <= ?) OR (status = 'running' AND lease_until < ?)
       ORDER BY next_attempt_at, id LIMIT ?`,
      [now, now, limit],
    );
    return rows.map((row) => Number(row.id));
  }

  /** Takes the job for `owner` as its next attempt; the attempt's number, or undefined when another worker won it (or it is done). */
  async claim(id: number, owner: string, leaseMs: number): Promise<number | undefined> {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      // A job whose last attempt died with its worker has no attempt left: it failed (a job that kills its process must not loop).
      const exhausted = await tx.run(
        `UPDATE sync_jobs SET status = 'failed', ended_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'running' AND lease_until < ? AND attempts >= ?`,
        [now, now, id, now, MAX_ATTEMPTS],
      );
      if (exhausted.changes === 1) {
        await tx.run(`UPDATE sync_attempts SET status = 'failed', failure = ?, ended_at = ?, updated_at = ? WHERE job_id = ? AND status = 'running'`, [
          STOPPED_WORKER,
          now,
          now,
          id,
        ]);
        await this.ended?.(tx, id);
        return undefined;
      }
      const { changes } = await tx.run(
        `UPDATE sync_jobs SET status = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ?, started_at = COALESCE(started_at, ?)
         WHERE id = ? AND ((status IN ('pending', 'incomplete') AND next_attempt_at <= ?) OR (status = 'running' AND lease_until < ?))`,
        [owner, this.now(leaseMs), now, now, id, now, now],
      );
      if (changes !== 1) return undefined;
      const { attempts } = (await tx.get<{ attempts: number }>('SELECT attempts FROM sync_jobs WHERE id = ?', [id]))!;
      // A worker that died left its attempt running: it failed.
      await tx.run(`UPDATE sync_attempts SET status = 'failed', failure = ?, ended_at = ?, updated_at = ? WHERE job_id = ? AND status = 'running'`, [
        STOPPED_WORKER,
        now,
        now,
        id,
      ]);
      await tx.run(`INSERT INTO sync_attempts (job_id, attempt_number, status, created_at, updated_at) VALUES (?, ?, 'running', ?, ?)`, [
        id,
        Number(attempts),
        now,
        now,
      ]);
      return Number(attempts);
    });
  }

  /** Extends the lease: `held`, `cancel` when a cancellation was asked for, `lost` when another worker took the job. */
  async renew(id: number, owner: string, leaseMs: number): Promise<LeaseState> {
    const { changes } = await this.db.run('UPDATE sync_jobs SET lease_until = ? WHERE id = ? AND lease_owner = ? AND status = ?', [
      this.now(leaseMs),
      id,
      owner,
      'running',
    ]);
    if (changes !== 1) return 'lost';
    const job = await this.get(id);
    return job?.cancel_requested === 1 ? 'cancel' : 'held';
  }

  /** Lets the job go at once (this instance is stopping): the next poll of any instance takes it as a new attempt, resuming from state. */
  async release(id: number, owner: string): Promise<void> {
    await this.db.run("UPDATE sync_jobs SET lease_until = ? WHERE id = ? AND lease_owner = ? AND status = 'running'", [this.now(-1), id, owner]);
  }

  /**
   * Lets go at once the jobs an earlier run of this instance held when it died (owners starting with
   * `prefix`): the next poll takes them as new attempts.
   */
  async releaseEarlierRuns(prefix: string): Promise<void> {
    await this.db.run("UPDATE sync_jobs SET lease_until = ? WHERE status = 'running' AND substr(lease_owner, 1, ?) = ?", [this.now(-1), prefix.length, prefix]);
  }

  /** Adds what an attempt wrote to its counts and the job's. */
  async recordProgress(id: number, attempt: number, rows: number, bytes: number): Promise<void> {
    const now = this.now();
    await this.db.run(
      'UPDATE sync_attempts SET rows_synced = rows_synced + ?, bytes_synced = bytes_synced + ?, updated_at = ? WHERE job_id = ? AND attempt_number = ?',
      [rows, bytes, now, id, attempt],
    );
    await this.db.run('UPDATE sync_jobs SET rows_synced = rows_synced + ?, bytes_synced = bytes_synced + ?, updated_at = ? WHERE id = ?', [
      rows,
      bytes,
      now,
      id,
    ]);
    await this.db.run(
      'INSERT INTO sync_progress_samples (job_id, at, rows_synced, bytes_synced) SELECT id, ?, rows_synced, bytes_synced FROM sync_jobs WHERE id = ?',
      [now, id],
    );
  }

  /**
   * Keeps the progress samples of the connection's newest jobs only (a sample a second while a job
   * runs): what a run is compared with is the runs just before it.
   */
  private async pruneProgressSamples(connectionId: string): Promise<void> {
    await this.db.run(
      `DELETE FROM sync_progress_samples WHERE job_id IN (
         SELECT id FROM sync_jobs WHERE connection_id = ? AND id < (
           SELECT min(id) FROM (SELECT id FROM sync_jobs WHERE connection_id = ? ORDER BY id DESC LIMIT ${SAMPLED_JOBS_KEPT}) newest))`,
      [connectionId, connectionId],
    );
  }

  /** The job's totals at each progress save, oldest first. */
  async progressSamples(jobId: number): Promise<ProgressSample[]> {
    const rows = await this.db.all<ProgressSample>('SELECT at, rows_synced, bytes_synced FROM sync_progress_samples WHERE job_id = ? ORDER BY at', [jobId]);
    return rows.map((row) => ({ at: row.at, rows_synced: Number(row.rows_synced), bytes_synced: Number(row.bytes_synced) }));
  }

  /** The last job of the same connection and type before this one that succeeded: what a running job is measured against. */
  async previousRun(job: Pick<SyncJob, 'id' | 'connection_id' | 'job_type'>): Promise<SyncJob | undefined> {
    return toJob(
      await this.db.get<SyncJob>(
        "SELECT * FROM sync_jobs WHERE connection_id = ? AND job_type = ? AND id < ? AND status = 'succeeded' ORDER BY id DESC LIMIT 1",
        [job.connection_id, job.job_type, job.id],
      ),
    );
  }

  /** Appends a line to the attempt's log. */
  async log(id: number, attempt: number, line: string): Promise<void> {
    await this.db.run(`UPDATE sync_attempts SET log = log || ? WHERE job_id = ? AND attempt_number = ?`, [`${this.now()} ${line}\n`, id, attempt]);
  }

  /**
   * Ends an attempt. A failure before the last attempt leaves the job `incomplete`, due again after
   * `retryInMs`; the last one fails it. Nothing happens when `owner` no longer holds the job.
   */
  async finish(
    id: number,
    owner: string,
    attempt: number,
    /** `final`: a failure no later attempt can get past (the source must be connected again): the job fails at once. */
    outcome: { status: 'succeeded' | 'cancelled' } | { status: 'failed'; error: string; retryInMs: number; final?: boolean },
  ): Promise<JobStatus | undefined> {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      const job = toJob(await tx.get<SyncJob>('SELECT * FROM sync_jobs WHERE id = ? AND lease_owner = ? AND status = ?', [id, owner, 'running']));
      if (!job) return undefined;
      const failed = outcome.status === 'failed';
      const retry = failed && !outcome.final && job.attempts < MAX_ATTEMPTS;
      const status: JobStatus = retry ? 'incomplete' : outcome.status;
      await tx.run('UPDATE sync_attempts SET status = ?, failure = ?, ended_at = ?, updated_at = ? WHERE job_id = ? AND attempt_number = ?', [
        outcome.status,
        failed ? outcome.error : null,
        now,
        now,
        id,
        attempt,
      ]);
      await tx.run('UPDATE sync_jobs SET status = ?, ended_at = ?, updated_at = ?, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?', [
        status,
        retry ? null : now,
        now,
        retry ? this.now(outcome.retryInMs) : job.next_attempt_at,
        id,
      ]);
      if (!retry) await this.ended?.(tx, id);
      return status;
    });
  }

  /** Cancels a job: at once when no attempt runs, else asked of the worker (it stops at its next renewal). */
  async cancel(id: number): Promise<SyncJob | undefined> {
    const now = this.now();
    await this.db.run(`UPDATE sync_jobs SET status = 'cancelled', ended_at = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'incomplete')`, [
      now,
      now,
      id,
    ]);
    await this.db.run(`UPDATE sync_jobs SET cancel_requested = 1, updated_at = ? WHERE id = ? AND status = 'running'`, [now, id]);
    return this.get(id);
  }
}

function toJob(row: SyncJob | undefined): SyncJob | undefined {
  return (
    row && {
      ...row,
      id: Number(row.id),
      rows_synced: Number(row.rows_synced),
      bytes_synced: Number(row.bytes_synced),
      attempts: Number(row.attempts),
      cancel_requested: Number(row.cancel_requested),
    }
  );
}
