import type { ContextStore } from '../context-store/context-store.ts';
import type { JobQueueFactory } from '../jobs/job-queue.ts';
import { JobWorker } from '../jobs/job-worker.ts';
import type { ReplicationJobs } from './replication-jobs.ts';
import { runReplication, type ReplicationTarget } from './run-replication.ts';

export interface ReplicationSchedulerOptions {
  jobs: ReplicationJobs;
  store: ContextStore;
  /** The connector to replicate, or undefined when it was deleted (its job goes too). */
  target(connectorId: string): Promise<ReplicationTarget | undefined>;
  /** Between two refreshes of a connector (PLUGBOARD_REPLICATION_INTERVAL). */
  intervalMs: number;
  /** The queue backend (pg-boss on PostgreSQL); polling when not given. */
  queues?: JobQueueFactory;
  /** This instance's id across restarts (instanceIdOf): its start takes back at once the jobs its earlier runs held. */
  instanceId?: string;
  /** How often due jobs are looked for. */
  pollMs?: number;
  /** How long a run holds its job without renewing; another instance takes over after it. */
  leaseMs?: number;
  /** Runs at once on this instance. */
  concurrency?: number;
  log?: (event: ReplicationEvent) => void;
  /** Told of each run's outcome once recorded (the organization's webhook hears of a change). */
  ended?(connectorId: string, outcome: { error?: string }): Promise<void>;
}

export type ReplicationEvent =
  | { event: 'replication_started'; connector_id: string }
  | { event: 'replication_finished'; connector_id: string; duration_ms: number }
  | { event: 'replication_failed'; connector_id: string; duration_ms: number; error: string }
  | { event: 'replication_cancelled'; connector_id: string; duration_ms: number }
  | { event: 'replication_poll_failed'; error: string };

/** Thrown into a run whose job it no longer holds (taken over, or deleted with its connector): it stops without touching the job. */
class LeaseLostError extends Error {}

/** First retry of a failed run; doubled per failure up to the refresh interval. */
const FIRST_RETRY_MS = 30_000;

/**
 * Runs replication jobs on this instance: polls for due jobs, claims each with a lease, runs it,
 * renews the lease as records arrive, and schedules the next run (after the interval, or a backoff
 * after a failure). Jobs are rows, so they survive a restart; a run cut off by a crash is taken
 * over once its lease expires.
 */
export class ReplicationScheduler extends JobWorker<string> {
  readonly name = 'plugboard_replication';
  private readonly leaseMs: number;
  /** The runs under way here, each stopped when its connector is deleted. */
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly options: ReplicationSchedulerOptions) {
    super(options.queues, { pollMs: options.pollMs ?? 5_000, concurrency: options.concurrency ?? 2 }, options.instanceId);
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  protected releaseEarlierRuns(prefix: string): Promise<void> {
    return this.options.jobs.releaseEarlierRuns(prefix);
  }

  due(limit: number): Promise<string[]> {
    return this.options.jobs.due(limit);
  }

  async nextDue(connectorId: string): Promise<Date | undefined> {
    const job = await this.options.jobs.get(connectorId);
    if (!job) return undefined;
    if (job.lease_owner === null) return new Date(job.next_run_at);
    // Let go by a stopping instance: due again once its time comes.
    const released = job.lease_until !== null && Date.parse(job.lease_until) < Date.now();
    return released ? new Date(Math.max(Date.parse(job.next_run_at), Date.now())) : undefined;
  }

  claim(connectorId: string): Promise<boolean> {
    return this.options.jobs.claim(connectorId, this.owner, this.leaseMs);
  }

  failed(error: unknown): void {
    this.options.log?.({ event: 'replication_poll_failed', error: String(error) });
  }

  /**
   * The connector was deleted: its run here stops at its next call (it would otherwise go on asking
   * the upstream, renewing its tokens, and writing records nobody owns), and what it wrote since goes.
   */
  cancel(connectorId: string): void {
    this.running.get(connectorId)?.abort();
  }

  async run(connectorId: string): Promise<void> {
    const { jobs, store, log } = this.options;
    const started = Date.now();
    const target = await this.options.target(connectorId).catch(() => undefined);
    if (!target) {
      await store.deleteConnector(connectorId);
      return;
    }
    log?.({ event: 'replication_started', connector_id: connectorId });
    let renewed = Date.now();
    const onProgress = async () => {
      if (Date.now() - renewed < this.leaseMs / 4) return;
      if (!(await jobs.renew(connectorId, this.owner, this.leaseMs))) throw new LeaseLostError('another instance took over the replication');
      renewed = Date.now();
    };
    const cancelled = new AbortController();
    this.running.set(connectorId, cancelled);
    const endCancelled = async () => {
      await store.deleteConnector(connectorId);
      log?.({ event: 'replication_cancelled', connector_id: connectorId, duration_ms: Date.now() - started });
    };
    // The job left this run: taken over by another instance, whose run goes on, or gone with a
    // connector deleted on another instance (this one not told), whose records this run wrote since.
    const endLost = async () => {
      if (!(await jobs.get(connectorId))) await endCancelled();
    };
    try {
      await runReplication(target, { store, onProgress, signal: AbortSignal.any([this.signal, cancelled.signal]) });
      if (cancelled.signal.aborted) return await endCancelled();
      if (!(await jobs.finish(connectorId, this.owner, { nextRunInMs: this.options.intervalMs }))) return await endLost();
      log?.({ event: 'replication_finished', connector_id: connectorId, duration_ms: Date.now() - started });
      await this.tell(connectorId, {});
    } catch (error) {
      if (cancelled.signal.aborted) return await endCancelled();
      if (error instanceof LeaseLostError) return await endLost();
      // Stopping: the job goes back at once, for another instance (or the next start) to take.
      if (this.signal.aborted) return this.options.jobs.release(connectorId, this.owner);
      const failures = (await jobs.get(connectorId))?.failures ?? 0;
      const retryIn = Math.min(this.options.intervalMs, FIRST_RETRY_MS * 2 ** failures);
      const message = error instanceof Error ? error.message : String(error);
      if (!(await jobs.finish(connectorId, this.owner, { error: message, nextRunInMs: retryIn }))) return await endLost();
      log?.({ event: 'replication_failed', connector_id: connectorId, duration_ms: Date.now() - started, error: message });
      await this.tell(connectorId, { error: message });
    } finally {
      this.running.delete(connectorId);
    }
  }

  /** A failure to tell is logged, never taken for the run's own. */
  private async tell(connectorId: string, outcome: { error?: string }): Promise<void> {
    await this.options.ended?.(connectorId, outcome).catch((error: unknown) => this.failed(error));
  }
}
