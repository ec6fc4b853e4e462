/** A fetched value and the time (ms since the epoch) after which it is fetched again. */
export interface Fetched<T> {
  value: T;
  validUntil: number;
}

/**
 * One cached value of the hosted variant (a token, a connector id) that concurrent callers share: while
 * it is being fetched, every caller waits for the same request instead of sending its own.
 */
export class SharedValue<T> {
  private current: Fetched<T> | null = null;
  private pending: Promise<Fetched<T>> | null = null;

  /** The cached value while valid; else the fetch in flight, or `fetch()` started now. */
  async get(fetch: () => Promise<Fetched<T>>): Promise<T> {
    if (this.current && this.current.validUntil > Date.now()) return this.current.value;
    this.pending ??= fetch()
      .then((fetched) => (this.current = fetched))
      .finally(() => (this.pending = null));
    return (await this.pending).value;
  }

  /**
   * Forgets `value` after the server refused it, unless it was already replaced: of several callers
   * refused with the same value, only the first causes a new fetch.
   */
  discard(value: T): void {
    if (this.current?.value === value) this.current = null;
  }
}
