/**
 * Runs async work one piece at a time, in the order given: a connection's transactions must not
 * interleave (a second writer's INSERT would land inside the first one's BEGIN).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    // The next piece waits for this one however it ends; its failure is the caller's to see.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
