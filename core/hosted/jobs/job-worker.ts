import { leaseOwnerFor } from './instance-identity.ts';
import type { JobKind, JobQueue, JobQueueFactory, JobQueueOptions } from './job-queue.ts';
import { pollingJobQueues } from './job-queues.ts';

/**
 * A kind of durable job and the queue that runs it on this instance. Stopping aborts the runs in
 * progress (they let their jobs go) before the queue stops.
 */
export abstract class JobWorker<K extends string | number> implements JobKind<K> {
  abstract readonly name: string;
  private readonly abort = new AbortController();
  private readonly queue: JobQueue;
  /** The lease owner this run writes: the instance's id (when it has one across restarts) and the run's. */
  protected readonly owner: string;
  private readonly earlierRuns: ReturnType<typeof leaseOwnerFor>['earlierRuns'];

  constructor(queues: JobQueueFactory | undefined, options: JobQueueOptions, instanceId?: string) {
    this.queue = (queues ?? pollingJobQueues.queue)(this, options);
    ({ owner: this.owner, earlierRuns: this.earlierRuns } = leaseOwnerFor(instanceId));
  }

  abstract due(limit: number): Promise<K[]>;
  abstract claim(key: K): Promise<boolean>;
  abstract run(key: K): Promise<void>;
  abstract nextDue(key: K): Promise<Date | undefined>;
  abstract failed(error: unknown): void;

  /** Aborted once the worker stops: runs in progress end at their next step. */
  protected get signal(): AbortSignal {
    return this.abort.signal;
  }

  /**
   * Lets go at once the jobs held by owners starting with `prefix`: an earlier run's of this instance.
   * Called before this run claims anything, and only by the process holding the id (instance-claim.ts).
   */
  protected abstract releaseEarlierRuns(prefix: string): Promise<void>;

  /** An earlier run of this instance that died holding jobs: they are let go first, so this run takes them at once, not after their lease. */
  async start(): Promise<void> {
    if (this.abort.signal.aborted) return;
    if (this.earlierRuns) await this.releaseEarlierRuns(this.earlierRuns);
    await this.queue.start();
  }

  trigger(): void {
    this.queue.trigger();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }
}
