import { decodeCursor, encodeCursor } from '../cursor.ts';
import { SlackError } from '../errors.ts';
import type { SlackUser } from '../types.ts';
import { RawJson, userToWire } from '../wire.ts';
import type { MethodDef } from './context.ts';

/** Slack refuses an unpaginated users.list on large workspaces and caps a page at 1000. */
const USERS_MAX_PAGE = 1000;

export const usersList: MethodDef = {
  write: false,
  handle({ store, args }) {
    const users = store.users;
    const requested = args.int('limit') ?? 0;
    let limit: number;
    if (requested <= 0) {
      if (users.length > USERS_MAX_PAGE) throw new SlackError('limit_required');
      limit = users.length;
    } else {
      limit = Math.min(requested, USERS_MAX_PAGE);
    }
    const after = decodeCursor(args.str('cursor'), 'user');
    const start = after === undefined ? 0 : store.userIndexFrom(after);
    const end = Math.min(start + limit, users.length);
    const includeLocale = args.bool('include_locale', false);
    const members: string[] = [];
    for (let i = start; i < end; i++) members.push(store.userJson(users[i] as SlackUser, includeLocale));
    const next = users[end];
    const meta = { next_cursor: next ? encodeCursor('user', next.id) : '' };
    return new RawJson(`{"ok":true,"members":[${members.join(',')}],"cache_ts":${Math.floor(Date.now() / 1000)},"response_metadata":${JSON.stringify(meta)}}`);
  },
};

export const usersInfo: MethodDef = {
  write: false,
  handle({ store, args }) {
    const id = args.str('user');
    const user = id === undefined ? undefined : store.user(id);
    if (!user) throw new SlackError('user_not_found');
    return { ok: true, user: userToWire(user, args.bool('include_locale', false)) };
  },
};
