import { decodeCursor, encodeCursor } from '../cursor.ts';
import { SlackError } from '../errors.ts';
import { formatTs, parseTs } from '../slack-ts.ts';
import type { SandboxChannel, SandboxMessage } from '../types.ts';
import { messageToWire } from '../wire.ts';
import { pageLimit, requireChannel, type MethodContext, type MethodDef } from './context.ts';

/** Index of the first message with micros > x (strict) or >= x, in an oldest-first list. */
function bound(list: readonly SandboxMessage[], x: number, strict: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = (list[mid] as SandboxMessage).micros;
    if (v < x || (strict && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Range {
  /** First index inside the range. */
  lo: number;
  /** One past the last index inside the range. */
  hi: number;
}

/**
 * oldest/latest/inclusive as Slack applies them: oldest defaults to 0, latest to now (here: no upper
 * bound, since no stored message is newer than the present), and bounds are exclusive unless
 * `inclusive` is true.
 */
function timeRange(ctx: MethodContext, list: readonly SandboxMessage[]): Range {
  const latestRaw = ctx.args.str('latest');
  const oldestRaw = ctx.args.str('oldest');
  const latest = latestRaw === undefined ? Number.POSITIVE_INFINITY : parseTs(latestRaw);
  if (latest === null) throw new SlackError('invalid_ts_latest');
  const oldest = oldestRaw === undefined ? 0 : parseTs(oldestRaw);
  if (oldest === null) throw new SlackError('invalid_ts_oldest');
  const inclusive = ctx.args.bool('inclusive', false);
  const lo = bound(list, oldest, !inclusive);
  const hi = bound(list, latest, inclusive);
  return { lo, hi: Math.max(lo, hi) };
}

function cursorMicros(ctx: MethodContext): number | undefined {
  const key = decodeCursor(ctx.args.str('cursor'), 'next_ts');
  return key === undefined ? undefined : Number(key);
}

/** A bot token reads only the conversations it is a member of, public ones included: that is why connectors join channels. */
function requireReadableChannel(ctx: MethodContext): SandboxChannel {
  const channel = requireChannel(ctx);
  if (!ctx.store.isBotMember(channel)) throw new SlackError('not_in_channel');
  return channel;
}

export const conversationsHistory: MethodDef = {
  write: false,
  handle(ctx) {
    const channel = requireReadableChannel(ctx);
    const timeline = ctx.store.conversation(channel.id).timeline;
    const range = timeRange(ctx, timeline);
    // History pages: default 100, at most 999 (Slack's documented bounds).
    const limit = pageLimit(ctx, 100, 999);
    // Newest first: the cursor names the newest message of the next (older) page.
    const from = cursorMicros(ctx);
    const hi = from === undefined ? range.hi : Math.max(range.lo, Math.min(range.hi, bound(timeline, from, true)));
    const start = Math.max(range.lo, hi - limit);
    const messages = [];
    for (let i = hi - 1; i >= start; i--) messages.push(messageToWire(ctx.store, timeline[i] as SandboxMessage));
    const hasMore = start > range.lo;
    const body: Record<string, unknown> = {
      ok: true,
      messages,
      has_more: hasMore,
      pin_count: 0,
      channel_actions_ts: null,
      channel_actions_count: 0,
    };
    if (hasMore) body.response_metadata = { next_cursor: encodeCursor('next_ts', String((timeline[start - 1] as SandboxMessage).micros)) };
    return body;
  },
};

/**
 * Replies of a thread, oldest first. The first page (no cursor) opens with the parent, which counts
 * against `limit`; continuation pages hold replies only, as Slack's do. A reply's ts resolves to its
 * whole thread.
 */
export const conversationsReplies: MethodDef = {
  write: false,
  handle(ctx) {
    const channel = requireReadableChannel(ctx);
    // The spec lists no "missing argument" error for this method; thread_not_found is its only fit.
    const ts = parseTs(ctx.args.str('ts'));
    if (ts === null) throw new SlackError('thread_not_found');
    const found = ctx.store.findMessage(channel.id, formatTs(ts));
    if (!found) throw new SlackError('thread_not_found');
    const root = ctx.store.threadRoot(channel.id, found);
    const replies = ctx.store.conversation(channel.id).threads.get(root.ts) ?? [];
    const range = timeRange(ctx, replies);
    // Slack documents a default (and recommended ceiling) of 1000 for this method, unlike history's 100.
    let limit = pageLimit(ctx, 1000, 1000);
    const from = cursorMicros(ctx);
    const messages = [];
    if (from === undefined) {
      messages.push(messageToWire(ctx.store, root));
      limit--;
    }
    const lo = from === undefined ? range.lo : Math.min(range.hi, Math.max(range.lo, bound(replies, from, false)));
    const end = Math.min(range.hi, lo + limit);
    for (let i = lo; i < end; i++) messages.push(messageToWire(ctx.store, replies[i] as SandboxMessage));
    const hasMore = end < range.hi;
    const body: Record<string, unknown> = { ok: true, messages, has_more: hasMore };
    if (hasMore) body.response_metadata = { next_cursor: encodeCursor('next_ts', String((replies[end] as SandboxMessage).micros)) };
    return body;
  },
};
