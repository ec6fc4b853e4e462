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

  constructor(queues: JobQueueFactory | undefined, options: JobQueueOptions) {
    this.queue = (queues ?? pollingJobQueues.queue)(this, options);
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

  start(): Promise<void> {
    return this.abort.signal.aborted ? Promise.resolve() : this.queue.start();
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
