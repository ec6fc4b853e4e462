/**
 * A value fetched on first use and kept: objects the library hands out before any call (a connection
 * from getConnection) load their data only when asked for it, once, and a change refreshes it.
 */
export class Lazy<T> {
  #value: Promise<T> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    known?: T,
  ) {
    if (known !== undefined) this.#value = Promise.resolve(known);
  }

  get(): Promise<T> {
    if (!this.#value) {
      const pending = this.load();
      this.#value = pending;
      // A failed load is not kept: the next read tries again.
      pending.catch(() => {
        if (this.#value === pending) this.#value = undefined;
      });
    }
    return this.#value;
  }

  set(value: T): T {
    this.#value = Promise.resolve(value);
    return value;
  }

  refresh(): Promise<T> {
    this.#value = undefined;
    return this.get();
  }
}
