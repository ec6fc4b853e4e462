/**
 * Runs writes in order while the caller goes on reading: at most `depth` tasks are in flight, and the
 * caller waits only beyond that. A task after a failed one does not run; the failure surfaces at the
 * next push or at drain.
 */
export class WritePipeline {
  private readonly inFlight: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;

  constructor(private readonly depth: number) {}

  async push(task: () => Promise<void>): Promise<void> {
    this.throwIfFailed();
    const next = (this.inFlight.at(-1) ?? Promise.resolve()).then(task);
    next.catch((error: unknown) => {
      this.failure ??= { error };
    });
    this.inFlight.push(next);
    while (this.inFlight.length > this.depth) await this.inFlight.shift();
  }

  /** Settles once every task pushed has run; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0));
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
