import { TimeoutError } from 'got';
import type { Readable } from 'node:stream';
import { UpstreamError } from '../errors.ts';

/**
 * A response body as an async iterable of chunks whose failure is a typed error: the caller must
 * never take a short file for the whole one. A connection silent past the idle timeout is
 * `upstream_timeout`; any other failure (reset, premature close, length mismatch)
 * `upstream_stream_truncated`. It only wraps `next()`, so a chunk costs no more than iterating the
 * stream itself.
 */
export function truncationGuarded(stream: Readable): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      return {
        next: () =>
          chunks.next().catch((error: unknown) => {
            if (error instanceof TimeoutError) {
              throw new UpstreamError('Upstream went silent mid-transfer for longer than the idle timeout; the transfer was abandoned before the whole content arrived', 'upstream_timeout');
            }
            throw new UpstreamError('Upstream transfer ended before the whole content arrived', 'upstream_stream_truncated');
          }),
        return: async (value?: unknown) => {
          stream.destroy();
          return { done: true as const, value: value as Uint8Array };
        },
      };
    },
  };
}
