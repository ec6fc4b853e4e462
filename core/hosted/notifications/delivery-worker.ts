import type { JobQueueFactory } from '../jobs/job-queue.ts';
import { JobWorker } from '../jobs/job-worker.ts';
import type { Deliveries } from './deliveries.ts';
import type { DeliveryAttempts } from './delivery-attempts.ts';
import type { EventExpansion } from './event-expansion.ts';

export interface DeliveryWorkerOptions {
  deliveries: Deliveries;
  attempts: DeliveryAttempts;
  expansion: EventExpansion;
  /** Forgets old log entries and expanded events; run at most hourly. */
  prune(): Promise<void>;
  /** The queue backend (pg-boss on PostgreSQL); polling when not given. */
  queues?: JobQueueFactory;
  /** This instance's id across restarts: its start takes back at once the deliveries its earlier runs held. */
  instanceId?: string;
  pollMs: number;
  /** How long an attempt holds its delivery: past the send's timeout, so a live attempt is never taken over. */
  leaseMs: number;
  concurrency?: number;
  failed(error: unknown): void;
}

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Sends deliveries on this instance, on the job queues' backend (polling on SQLite, pg-boss on
 * PostgreSQL): each tick expands recorded events into deliveries, then due deliveries are claimed
 * with a lease and attempted. An instance killed mid-attempt leaves a lease its restart lets go at
 * once (releaseEarlierRuns), and another instance takes after it expires.
 */
export class DeliveryWorker extends JobWorker<string> {
  readonly name = 'plugboard_notifications';
  private readonly attemptOf = new Map<string, number>();
  private prunedAt = 0;

  constructor(private readonly options: DeliveryWorkerOptions) {
    super(options.queues, { pollMs: options.pollMs, concurrency: options.concurrency ?? 4 }, options.instanceId);
  }

  protected releaseEarlierRuns(prefix: string): Promise<void> {
    return this.options.deliveries.releaseEarlierRuns(prefix);
  }

  async tick(): Promise<void> {
    await this.options.expansion.expandPending();
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    await this.options.prune();
  }

  due(limit: number): Promise<string[]> {
    return this.options.deliveries.due(limit);
  }

  async claim(id: string): Promise<boolean> {
    const attempt = await this.options.deliveries.claim(id, this.owner, this.options.leaseMs);
    if (attempt !== undefined) this.attemptOf.set(id, attempt);
    return attempt !== undefined;
  }

  run(id: string): Promise<void> {
    return this.options.attempts.run(id, this.attemptOf.get(id)!, this.owner, this.signal).finally(() => this.attemptOf.delete(id));
  }

  async nextDue(id: string): Promise<Date | undefined> {
    const delivery = await this.options.deliveries.get(id);
    return delivery?.status === 'pending' ? new Date(Math.max(delivery.nextAttemptAt, Date.now())) : undefined;
  }

  failed(error: unknown): void {
    this.options.failed(error);
  }
}
