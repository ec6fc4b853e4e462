import { SlackError } from './errors.ts';

/**
 * Opaque cursors in Slack's own style: base64 of `<kind>:<key>`, where the key names the first item of
 * the next page ("user:U0G9WFXNZ", "team:C061FA5PB", "next_ts:1512085861000543"). Keying on an item
 * rather than an offset keeps paging stable when items are added between pages.
 */
export type CursorKind = 'user' | 'team' | 'next_ts';

const KEY_PATTERN: Record<CursorKind, RegExp> = {
  user: /^[UW][A-Z0-9]{2,}$/,
  team: /^[CGD][A-Z0-9]{2,}$/,
  next_ts: /^\d{1,16}$/,
};

export function encodeCursor(kind: CursorKind, key: string): string {
  return Buffer.from(`${kind}:${key}`, 'utf8').toString('base64');
}

/** The key of a cursor of `kind`; an empty cursor means "first page" and yields undefined. */
export function decodeCursor(cursor: string | undefined, kind: CursorKind): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(cursor)) throw new SlackError('invalid_cursor');
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const prefix = `${kind}:`;
  if (!text.startsWith(prefix)) throw new SlackError('invalid_cursor');
  const key = text.slice(prefix.length);
  if (!KEY_PATTERN[kind].test(key)) throw new SlackError('invalid_cursor');
  return key;
}

/** Index of the first element whose key is >= `key` in an array sorted ascending by key. */
export function lowerBound<T>(items: readonly T[], key: string | number, keyOf: (item: T) => string | number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(items[mid] as T) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
