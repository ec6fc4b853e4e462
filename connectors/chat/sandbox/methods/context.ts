import type { Args } from '../args.ts';
import { SlackError } from '../errors.ts';
import type { SlackOAuth } from '../oauth.ts';
import type { SandboxStore } from '../store.ts';
import type { SandboxChannel } from '../types.ts';
import type { RawJson, Wire } from '../wire.ts';

export interface MethodContext {
  store: SandboxStore;
  args: Args;
  oauth: SlackOAuth;
  /** The Authorization header as sent (oauth.v2.access may carry client credentials in it). */
  authorization: string | null;
  /** The bearer token the request was authenticated with ('' for a method that needs none). */
  token: string;
}

export interface MethodDef {
  /** Write methods honour JSON bodies; Slack ignores JSON bodies sent to read methods. */
  write: boolean;
  /** Called without a bearer token (oauth.v2.access authenticates the client instead). */
  unauthenticated?: boolean;
  handle(ctx: MethodContext): Wire | RawJson;
}

/** Channel lookup shared by most methods: unknown and invisible conversations look the same. */
export function requireChannel(ctx: MethodContext, name = 'channel'): SandboxChannel {
  const c = ctx.store.visibleChannel(ctx.args.str(name));
  if (!c) throw new SlackError('channel_not_found');
  return c;
}

/** Page size: absent, non-numeric or non-positive means the method's default; above max is clamped. */
export function pageLimit(ctx: MethodContext, fallback: number, max: number): number {
  const n = ctx.args.int('limit');
  if (n === undefined || n <= 0) return fallback;
  return Math.min(n, max);
}
