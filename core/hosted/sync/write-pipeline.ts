/**
 * Runs writes in order while the caller goes on reading: the caller waits only once more than
 * `maxPending` records are handed over and not yet written. A task after a failed one does not run;
 * the failure surfaces at the next push or at drain.
 */
export class WritePipeline {
  private readonly inFlight: { done: Promise<void>; records: number }[] = [];
  private pending = 0;
  private failure: { error: unknown } | undefined;

  constructor(private readonly maxPending: number) {}

  /** Queues a task that writes `records` records (0 for a state save, which only keeps its place in line). */
  async push(task: () => Promise<void>, records = 0): Promise<void> {
    this.throwIfFailed();
    const done = (this.inFlight.at(-1)?.done ?? Promise.resolve()).then(task);
    done.catch((error: unknown) => {
      this.failure ??= { error };
    });
    this.inFlight.push({ done, records });
    this.pending += records;
    while (this.pending > this.maxPending) {
      const oldest = this.inFlight.shift()!;
      await oldest.done;
      this.pending -= oldest.records;
    }
  }

  /**
   * Queues a write already under way (`started`): `then` runs in line, once it and every task before it
   * are done, with what it answered; like push otherwise.
   */
  pushStarted<T>(started: Promise<T>, records: number, then: (value: T) => Promise<void>): Promise<void> {
    // Its failure surfaces in line (at a later push or at drain), not as an unhandled rejection meanwhile.
    started.catch(() => undefined);
    return this.push(async () => then(await started), records);
  }

  /** Settles once every task pushed has run; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0).map((task) => task.done));
    this.pending = 0;
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
