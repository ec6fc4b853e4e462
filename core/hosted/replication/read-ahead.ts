/**
 * Iterates `source` while fetching ahead: up to `size` items are pulled in the background while the
 * consumer works on earlier ones, so an upstream page is on its way while the last one is written.
 */
export async function* readAhead<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const buffer: Promise<IteratorResult<T>>[] = [];
  const fill = () => {
    while (buffer.length < size) {
      const next = iterator.next();
      // Awaited in turn below; a rejection that arrives before its turn is not unhandled.
      next.catch(() => undefined);
      buffer.push(next);
    }
  };
  try {
    for (;;) {
      fill();
      const result = await buffer.shift()!;
      if (result.done) return;
      yield result.value;
    }
  } finally {
    // Settle what is in flight before closing the source (a rejection there is the consumer's to see no more).
    await Promise.allSettled(buffer);
    await iterator.return?.();
  }
}
