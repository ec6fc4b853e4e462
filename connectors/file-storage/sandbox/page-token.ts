import { createHash } from 'node:crypto';
import { invalidValue } from './errors.ts';

/**
 * Opaque page tokens for list methods: base64url of "<version>.<offset>.<fingerprint>". The
 * fingerprint binds a token to the query that produced it (q, orderBy, corpora...), so a token
 * replayed with a different query is rejected like Drive rejects it, instead of silently skipping
 * items. The sandbox's data is immutable, so an offset into the sorted result is stable.
 */

const VERSION = 'v1';

export function fingerprint(parts: readonly (string | number | boolean | undefined)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

export function encodePageToken(offset: number, print: string): string {
  return Buffer.from(`${VERSION}.${offset}.${print}`, 'utf8').toString('base64url');
}

/** The offset a token points at (0 without a token); 400 invalid for foreign or garbled tokens. */
export function decodePageToken(token: string | undefined, print: string): number {
  if (token === undefined) return 0;
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalidValue('pageToken');
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const m = /^v1\.(\d{1,9})\.([A-Za-z0-9_-]{12})$/.exec(text);
  if (!m || m[2] !== print) throw invalidValue('pageToken');
  return Number(m[1]);
}

/** One page of `items` from `offset`, and the token of the next page (undefined on the last). */
export function pageOf<T>(items: readonly T[], offset: number, pageSize: number, print: string): { page: T[]; nextPageToken?: string } {
  const page = items.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return next < items.length ? { page, nextPageToken: encodePageToken(next, print) } : { page };
}
