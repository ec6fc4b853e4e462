/** Between two saves: each is a durable write, and what calls for one may come thousands of times a second. */
const SAVE_EVERY_MS = 1000;

/**
 * Values saved at most once a second, and when flushed: what came meanwhile is merged (counts
 * summed, a newer state replacing an older one). What is saved trails what happened by a second at
 * most, never runs ahead of it: a stream's state is only added after the writes it vouches for.
 */
export class ThrottledSave<T> {
  private pending: T | undefined;
  private savedAt: number;

  constructor(
    private readonly save: (value: T) => Promise<void>,
    private readonly merge: (pending: T | undefined, next: T) => T,
    /** Whether the first value is saved at once (a state: a crash right after loses nothing read). */
    firstAtOnce: boolean,
  ) {
    this.savedAt = firstAtOnce ? 0 : Date.now();
  }

  async add(value: T): Promise<void> {
    this.pending = this.merge(this.pending, value);
    if (Date.now() - this.savedAt >= SAVE_EVERY_MS) await this.flush();
  }

  /** Saves what is pending, if anything. */
  async flush(): Promise<void> {
    const value = this.pending;
    if (value === undefined) return;
    this.pending = undefined;
    this.savedAt = Date.now();
    await this.save(value);
  }
}
