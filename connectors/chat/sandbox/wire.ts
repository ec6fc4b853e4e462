import type { SandboxStore } from './store.ts';
import type { SandboxChannel, SandboxMessage, SlackUser } from './types.ts';

/** JSON object as sent on the wire. */
export type Wire = Record<string, unknown>;

/** A response body already serialised, for hot paths that splice cached JSON fragments. */
export class RawJson {
  constructor(readonly json: string) {}
}

export function userToWire(user: SlackUser, includeLocale: boolean): SlackUser | Wire {
  return includeLocale ? { ...user, locale: 'en-US' } : user;
}

export interface ChannelWireOptions {
  numMembers: boolean;
  locale?: boolean;
}

/** objs_conversation as the bot sees it (is_member is relative to the token's user). */
export function channelToWire(store: SandboxStore, c: SandboxChannel, opts: ChannelWireOptions): Wire {
  const team = store.team.id;
  if (c.kind === 'im') {
    const other = c.user === undefined ? undefined : store.user(c.user);
    const out: Wire = {
      id: c.id,
      created: c.created,
      is_archived: c.is_archived,
      is_im: true,
      is_org_shared: false,
      context_team_id: team,
      updated: c.updated,
      user: c.user,
      is_user_deleted: other?.deleted ?? false,
      priority: 0,
    };
    if (opts.locale) out.locale = 'en-US';
    return out;
  }
  const isMpim = c.kind === 'mpim';
  const out: Wire = {
    id: c.id,
    name: c.name,
    is_channel: !isMpim,
    is_group: false,
    is_im: false,
    is_mpim: isMpim,
    is_private: c.kind !== 'public_channel',
    created: c.created,
    is_archived: c.is_archived,
    is_general: c.is_general,
    unlinked: 0,
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: team,
    updated: c.updated,
    parent_conversation: null,
    creator: c.creator,
    is_ext_shared: false,
    shared_team_ids: [team],
    pending_connected_team_ids: [],
    is_member: store.isBotMember(c),
    is_thread_only: false,
    is_read_only: false,
    topic: { ...c.topic },
    purpose: { ...c.purpose },
    previous_names: c.previous_names.slice(),
  };
  if (isMpim) out.priority = 0;
  if (c.properties) out.properties = c.properties;
  if (opts.numMembers) out.num_members = c.members.size;
  if (opts.locale) out.locale = 'en-US';
  return out;
}

/** objs_message. Internal bookkeeping (channel, micros) stays behind; bot messages gain bot_profile. */
export function messageToWire(store: SandboxStore, m: SandboxMessage): Wire {
  const { channel: _channel, micros: _micros, ...rest } = m;
  const out: Wire = { ...rest };
  if (m.reactions) out.reactions = m.reactions.map((r) => ({ name: r.name, users: r.users.slice(), count: r.count }));
  if (m.reply_users) out.reply_users = m.reply_users.slice();
  if (m.bot_id) {
    const bot = store.botByBotId(m.bot_id);
    if (bot) out.bot_profile = botProfile(store, bot.bot_id);
  }
  return out;
}

export function botProfile(store: SandboxStore, botId: string): Wire | undefined {
  const bot = store.botByBotId(botId);
  if (!bot) return undefined;
  const user = store.user(bot.user_id);
  const image = (size: number) =>
    user?.profile.image_72.replace(/_72\.png$/, `_${size}.png`) ?? `https://a.slack-edge.com/80588/img/plugins/app/bot_${size}.png`;
  return {
    id: bot.bot_id,
    deleted: user?.deleted ?? false,
    name: user?.real_name ?? user?.profile.real_name ?? bot.name,
    updated: bot.updated,
    app_id: bot.app_id,
    icons: { image_36: image(36), image_48: image(48), image_72: image(72) },
    team_id: store.team.id,
  };
}
