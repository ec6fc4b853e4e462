import { PlugboardError } from '../../errors.ts';
import type { JobQueueFactory } from '../jobs/job-queue.ts';
import { JobWorker } from '../jobs/job-worker.ts';
import { ThrottledSave } from './throttled-save.ts';
import { runSyncAttempt, type SyncDependencies } from './run-sync.ts';
import type { ScheduledSyncs } from './scheduled-syncs.ts';
import type { SyncJobs } from './sync-jobs.ts';
import type { SyncTarget } from './sync-target.ts';

export interface SyncWorkerOptions extends SyncDependencies {
  jobs: SyncJobs;
  /** Cron schedules, fired on each poll (busy or not) before due jobs are looked for. */
  schedules?: ScheduledSyncs;
  /** Whether the connection still exists: a running sync of a deleted one stops as cancelled. */
  connectionExists?(connectionId: string): Promise<boolean>;
  /** The connection's sync view, or undefined when it was deleted (its job fails). */
  target(connectionId: string): Promise<SyncTarget | undefined>;
  /** The queue backend (pg-boss on PostgreSQL); polling when not given. */
  queues?: JobQueueFactory;
  /** This instance's id across restarts (instanceIdOf): its start takes back at once the jobs its earlier runs held. */
  instanceId?: string;
  pollMs?: number;
  /** How long an attempt holds its job without renewing; another instance takes over after it. */
  leaseMs?: number;
  /** Before the second attempt; doubled for the third. */
  retryDelayMs?: number;
  concurrency?: number;
  log?: (event: SyncEvent) => void;
}

/** Failures only the user can fix (connect the source again, give its secrets again): retrying would fail alike. */
function needsTheUser(error: unknown): boolean {
  return error instanceof PlugboardError && (error.error_code === 'credentials_expired' || error.error_code === 'secret_required');
}

export type SyncEvent =
  | { event: 'sync_attempt_started'; job_id: number; attempt: number; connection_id: string; worker: string }
  | { event: 'sync_attempt_finished'; job_id: number; attempt: number; status: string; duration_ms: number; error?: string }
  | { event: 'sync_poll_failed'; error: string };

/** Thrown into an attempt that must stop: its job was cancelled, or another instance took it over. */
class StopAttempt extends Error {
  constructor(readonly reason: 'cancel' | 'lost') {
    super(reason === 'cancel' ? 'the job was cancelled' : 'another instance took the job over');
  }
}

/**
 * Runs sync jobs on this instance: takes due jobs with a lease, runs an attempt, renews the lease as
 * records are written (stopping when the job is cancelled or taken over), and ends the attempt:
 * succeeded, cancelled, or failed and retried (up to three attempts in all).
 */
export class SyncWorker extends JobWorker<number> {
  readonly name = 'plugboard_sync';
  /** The attempt each job this instance claimed is on. */
  private readonly attempts = new Map<number, number>();
  private readonly leaseMs: number;

  constructor(private readonly options: SyncWorkerOptions) {
    super(options.queues, { pollMs: options.pollMs ?? 2_000, concurrency: options.concurrency ?? 2 }, options.instanceId);
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  protected releaseEarlierRuns(prefix: string): Promise<void> {
    return this.options.jobs.releaseEarlierRuns(prefix);
  }

  /** This worker's id: the lease owner it writes, and the `worker` of its log events. */
  get id(): string {
    return this.owner;
  }

  async tick(): Promise<void> {
    await this.options.schedules?.fireDue();
  }

  due(limit: number): Promise<number[]> {
    return this.options.jobs.runnable(limit);
  }

  async nextDue(id: number): Promise<Date | undefined> {
    const job = await this.options.jobs.get(id);
    if (job?.status === 'pending' || job?.status === 'incomplete') return new Date(job.next_attempt_at);
    // Let go by a stopping instance: due again at once.
    if (job?.status === 'running' && job.lease_until !== null && Date.parse(job.lease_until) < Date.now()) return new Date();
    return undefined;
  }

  async claim(id: number): Promise<boolean> {
    const attempt = await this.options.jobs.claim(id, this.owner, this.leaseMs);
    if (attempt !== undefined) this.attempts.set(id, attempt);
    return attempt !== undefined;
  }

  run(id: number): Promise<void> {
    return this.runAttempt(id, this.attempts.get(id)!).finally(() => this.attempts.delete(id));
  }

  failed(error: unknown): void {
    this.options.log?.({ event: 'sync_poll_failed', error: String(error) });
  }

  private async runAttempt(id: number, attempt: number): Promise<void> {
    const { jobs, log } = this.options;
    const started = Date.now();
    const job = await jobs.get(id);
    if (!job) return;
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, this.signal]);
    let stopped: StopAttempt | undefined;
    /** Renews the lease; stops the attempt when the job was cancelled or another instance took it. */
    const holdJob = async () => {
      let lease = stopped ? 'held' : await jobs.renew(id, this.owner, this.leaseMs);
      if (lease === 'held' && !stopped && this.options.connectionExists && !(await this.options.connectionExists(job.connection_id))) lease = 'cancel';
      if (lease !== 'held' && !stopped) {
        stopped = new StopAttempt(lease);
        stop.abort(stopped);
      }
      if (stopped) throw stopped;
    };
    // On a timer, not only as rows are written: a stream may read for minutes before it writes.
    const heartbeat = setInterval(() => void holdJob().catch(() => undefined), this.leaseMs / 4);
    heartbeat.unref();
    log?.({ event: 'sync_attempt_started', job_id: id, attempt, connection_id: job.connection_id, worker: this.owner });
    const writeLog = (line: string) => jobs.log(id, attempt, line);
    const progress = new ThrottledSave<{ rows: number; bytes: number }>(
      ({ rows, bytes }) => jobs.recordProgress(id, attempt, rows, bytes),
      (sum, next) => ({ rows: (sum?.rows ?? 0) + next.rows, bytes: (sum?.bytes ?? 0) + next.bytes }),
      false,
    );
    let outcome: Parameters<SyncJobs['finish']>[3];
    try {
      await holdJob();
      const target = await this.options.target(job.connection_id);
      if (!target) throw new Error(`connection ${job.connection_id} no longer exists`);
      await runSyncAttempt(
        target,
        {
          jobId: id,
          jobType: job.job_type,
          // Aborted with the reason when the job is cancelled or taken over: the attempt stops at its next step.
          signal,
          beforeCommit: holdJob,
          onWritten: (rows, bytes) => progress.add({ rows, bytes }),
          log: writeLog,
        },
        this.options,
      );
      await progress.flush();
      // A cancellation asked for at the very end still stands.
      await holdJob();
      outcome = { status: 'succeeded' };
    } catch (error) {
      await progress.flush().catch(() => undefined);
      if (this.signal.aborted) {
        // Shutting down: the job goes back at once, and the next start (or another instance) resumes it.
        await jobs.release(id, this.owner);
        return;
      }
      if (stopped?.reason === 'lost') return;
      if (stopped || (await jobs.get(id))?.cancel_requested === 1) outcome = { status: 'cancelled' };
      else {
        const message = error instanceof Error ? error.message : String(error);
        await writeLog(`attempt ${attempt} failed: ${message}`).catch(() => undefined);
        outcome = { status: 'failed', error: message, retryInMs: (this.options.retryDelayMs ?? 10_000) * 2 ** (attempt - 1), final: needsTheUser(error) };
      }
    } finally {
      clearInterval(heartbeat);
    }
    const status = await jobs.finish(id, this.owner, attempt, outcome);
    const error = outcome.status === 'failed' ? outcome.error : undefined;
    log?.({ event: 'sync_attempt_finished', job_id: id, attempt, status: status ?? 'lost', duration_ms: Date.now() - started, ...(error ? { error } : {}) });
  }
}
