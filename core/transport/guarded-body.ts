import { TimeoutError } from 'got';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { UpstreamError } from '../errors.ts';

/**
 * A response body as an async iterable of chunks whose failure is a typed error: the caller must
 * never take a short file for the whole one. A connection silent past the idle timeout is
 * `upstream_timeout`; any other failure (reset, premature close), or a clean end before the
 * `announcedBytes` arrived, `upstream_truncated`. It only wraps `next()`, so a chunk costs no more
 * than iterating the stream itself.
 */
export function truncationGuarded(stream: Readable, announcedBytes: number | null): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      let received = 0;
      return {
        next: () =>
          chunks.next().then(
            (result) => {
              if (!result.done) received += result.value.length;
              // Node's parser fails a framed body cut short; this catches whatever ends cleanly anyway (a close-delimited 206).
              else if (announcedBytes !== null && received < announcedBytes) throw truncated();
              return result;
            },
            (error: unknown) => {
              if (error instanceof TimeoutError) {
                throw new UpstreamError(
                  'Upstream went silent mid-transfer for longer than the idle timeout; the transfer was abandoned before the whole content arrived',
                  'upstream_timeout',
                );
              }
              throw truncated();
            },
          ),
        return: async (value?: unknown) => {
          stream.destroy();
          return { done: true as const, value: value as Uint8Array };
        },
      };
    },
  };
}

function truncated(): UpstreamError {
  return new UpstreamError('Upstream transfer ended before the whole content arrived', 'upstream_truncated');
}

/**
 * The body bytes a response head announces: Content-Length, else the span of a 206's Content-Range.
 * Null when the head doesn't say (chunked or close-delimited 200), or when the body is decoded on
 * the way in (Content-Encoding: the length counts the encoded bytes).
 */
export function announcedBodyBytes(status: number, headers: IncomingHttpHeaders): number | null {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return null;
  const length = headers['content-length'];
  if (length !== undefined && /^\d+$/.test(length)) return Number(length);
  const range = status === 206 ? /^bytes (\d+)-(\d+)\//.exec(headers['content-range'] ?? '') : null;
  return range ? Number(range[2]) - Number(range[1]) + 1 : null;
}
