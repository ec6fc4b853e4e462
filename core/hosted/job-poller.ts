/**
 * Runs durable jobs on this instance: polls for due ones every `pollMs` (or when triggered), claims
 * each, runs up to `concurrency` at once. Stopping aborts the runs in progress; their jobs are rows,
 * taken over once their leases expire. A kind of job says how it finds, takes and runs one.
 */
export abstract class JobPoller<K> {
  private readonly running = new Map<K, Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly pollMs: number,
    private readonly concurrency: number,
  ) {}

  /** Jobs due now, up to `limit`. */
  protected abstract due(limit: number): Promise<K[]>;
  /** Takes the job for this instance; false when another took it first. */
  protected abstract claim(key: K): Promise<boolean>;
  protected abstract run(key: K): Promise<void>;
  /** A poll that failed (the database unreachable); the next poll tries again. */
  protected abstract pollFailed(error: unknown): void;
  /** Work of every poll, even when no run slot is free (firing schedules). */
  protected async beforePoll(): Promise<void> {}

  /** Aborted once the poller stops: runs in progress end at their next step. */
  protected get signal(): AbortSignal {
    return this.abort.signal;
  }

  start(): void {
    if (this.timer || this.abort.signal.aborted) return;
    this.timer = setInterval(() => this.trigger(), this.pollMs);
    this.timer.unref();
    this.trigger();
  }

  /** Looks for due jobs now (after one was added). */
  trigger(): void {
    if (!this.timer || this.polling) return;
    this.polling = this.poll()
      .catch((error: unknown) => this.pollFailed(error))
      .finally(() => {
        this.polling = undefined;
      });
  }

  /** Stops polling and the runs in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.abort.abort();
    await this.polling;
    await Promise.allSettled(this.running.values());
  }

  /** Settles when no run of this instance is in progress (tests). */
  async idle(): Promise<void> {
    while (this.polling || this.running.size > 0) {
      await this.polling;
      await Promise.allSettled(this.running.values());
    }
  }

  private async poll(): Promise<void> {
    if (this.abort.signal.aborted) return;
    await this.beforePoll();
    const free = this.concurrency - this.running.size;
    if (free <= 0) return;
    for (const key of await this.due(free * 2)) {
      if (this.running.size >= this.concurrency || this.running.has(key)) continue;
      if (!(await this.claim(key))) continue;
      // A run's own failure (its database unreachable at the end) is a failed poll, never an unhandled rejection.
      const run = this.run(key)
        .catch((error: unknown) => this.pollFailed(error))
        .finally(() => {
          this.running.delete(key);
          this.trigger();
        });
      this.running.set(key, run);
    }
  }
}
