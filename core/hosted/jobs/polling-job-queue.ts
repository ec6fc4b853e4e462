import { CoalescedRun } from './coalesced-run.ts';
import type { JobKind, JobQueue, JobQueueOptions } from './job-queue.ts';

/**
 * The job queue of a single process (SQLite): polls the kind's rows for due jobs every `pollMs` (or
 * when triggered), claims each, runs up to `concurrency` at once, and looks again when a job it ran
 * is next due. A job cut off by a crash is a row whose lease expires: the next start takes it over.
 */
export class PollingJobQueue<K extends string | number> implements JobQueue {
  private readonly running = new Map<K, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly polls = new CoalescedRun(
    () => this.poll(),
    (error) => this.kind.failed(error),
  );
  private stopped = false;

  constructor(
    private readonly kind: JobKind<K>,
    private readonly options: JobQueueOptions,
  ) {}

  async start(): Promise<void> {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.trigger(), this.options.pollMs);
    this.timer.unref();
    this.trigger();
  }

  trigger(): void {
    if (this.timer && !this.stopped) this.polls.request();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.polls.current;
    await Promise.allSettled(this.running.values());
  }

  async idle(): Promise<void> {
    while (this.polls.current || this.running.size > 0) {
      await this.polls.current;
      await Promise.allSettled(this.running.values());
    }
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    await this.kind.tick?.();
    const free = this.options.concurrency - this.running.size;
    if (free <= 0) return;
    for (const key of await this.kind.due(free * 2)) {
      if (this.stopped || this.running.size >= this.options.concurrency || this.running.has(key)) continue;
      if (!(await this.kind.claim(key))) continue;
      // A run's own failure (its database unreachable at the end) is a failed poll, never an unhandled rejection.
      const run = this.kind
        .run(key)
        .then(() => this.lookAgain(key))
        .catch((error: unknown) => this.kind.failed(error))
        .finally(() => {
          this.running.delete(key);
          this.trigger();
        });
      this.running.set(key, run);
    }
  }

  /** A job due again soon (a retry) is looked for then, not only at the next poll. */
  private async lookAgain(key: K): Promise<void> {
    if (this.stopped) return;
    const next = await this.kind.nextDue(key);
    const inMs = next ? next.getTime() - Date.now() : Number.POSITIVE_INFINITY;
    if (inMs < this.options.pollMs * 10) setTimeout(() => this.trigger(), Math.max(inMs, 0)).unref();
  }
}
