import type { ServerResponse } from 'node:http';
import { MAX_SLICE, type ContentSource } from './content.ts';
import { DriveError } from './errors.ts';

/**
 * Media responses (files.get alt=media, revisions.get alt=media, files.export): single byte ranges
 * as RFC 9110 defines them and Drive honours them, and streaming that respects backpressure so a
 * gigabyte leaves the process at socket speed with constant memory.
 */

export type RangeRequest = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * `bytes=a-b`, `bytes=a-`, `bytes=-n`. A header that does not parse, or asks for several ranges,
 * is ignored (the whole body is sent with 200), as RFC 9110 allows. A range starting at or past
 * the end, or a zero-length suffix, is unsatisfiable (416).
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (header === null) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'full' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

export interface MediaOptions {
  mimeType: string;
  range: string | null;
  /** Fault injection: destroy the socket after this many body bytes (headers still claim the full length). */
  truncateAfterBytes?: number;
  /** Fault injection: after this many body bytes send nothing more, keeping the connection open until the client leaves. */
  stallAfterBytes?: number;
  headers?: Record<string, string>;
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

function waitForClose(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => res.once('close', () => resolve()));
}

/** Sends the headers now and waits until they are handed to the socket. */
function flushHeaders(res: ServerResponse): Promise<void> {
  res.flushHeaders();
  const socket = res.socket;
  if (!socket || socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.write('', () => resolve());
  });
}

function writeLast(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    res.write(chunk, () => resolve());
  });
}

/** Sends `source` (or the requested range of it); resolves when the body is written or abandoned. */
export async function sendMedia(res: ServerResponse, source: ContentSource, options: MediaOptions): Promise<void> {
  const size = source.size;
  const range = parseRange(options.range, size);
  if (range.kind === 'unsatisfiable') {
    throw new DriveError(416, 'requestedRangeNotSatisfiable', 'Request range not satisfiable', { headers: { 'content-range': `bytes */${size}` } });
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end + 1 : size;
  const headers: Record<string, string | number> = {
    ...options.headers,
    'content-type': options.mimeType,
    'content-length': end - start,
    'cache-control': 'private, max-age=0, must-revalidate',
  };
  if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end - 1}/${size}`;
  res.writeHead(range.kind === 'partial' ? 206 : 200, headers);

  const stall = options.stallAfterBytes;
  const cut = options.truncateAfterBytes ?? stall;
  // A media fault must still deliver the headers, even when it strikes before the first byte.
  if (cut !== undefined) await flushHeaders(res);
  const stop = cut === undefined ? end : Math.min(end, start + cut);
  let at = start;
  while (at < stop) {
    if (res.destroyed) return;
    const chunk = source.slice(at, Math.min(MAX_SLICE, stop - at));
    at += chunk.length;
    if (at >= stop && stop < end && stall !== undefined) {
      // Stall fault: these bytes reach the socket, then silence until the client gives up.
      await writeLast(res, chunk);
      await waitForClose(res);
      return;
    }
    if (at >= stop && stop < end) {
      // Truncation fault: make sure these bytes reach the socket, then drop the connection.
      await writeLast(res, chunk);
      res.destroy();
      return;
    }
    if (!res.write(chunk)) await waitForDrain(res);
  }
  if (stop < end && stall !== undefined) {
    await waitForClose(res);
    return;
  }
  if (stop < end) {
    res.destroy();
    return;
  }
  res.end();
}
