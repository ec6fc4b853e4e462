import { decodeCursor, encodeCursor, lowerBound } from '../cursor.ts';
import { SlackError } from '../errors.ts';
import { characterCount, validateChannelName } from '../names.ts';
import type { SandboxStore } from '../store.ts';
import type { ConversationType, SandboxChannel } from '../types.ts';
import { channelToWire, type Wire } from '../wire.ts';
import { pageLimit, requireChannel, type MethodContext, type MethodDef } from './context.ts';

const CONVERSATION_TYPES: ReadonlySet<string> = new Set<ConversationType>(['public_channel', 'private_channel', 'mpim', 'im']);
const TOPIC_MAX = 250;

/** Filtered listings per (types, exclude_archived), rebuilt only after a channel changes. */
const listCache = new WeakMap<SandboxStore, { version: number; lists: Map<string, SandboxChannel[]> }>();

function filteredChannels(store: SandboxStore, types: ReadonlySet<string>, excludeArchived: boolean): SandboxChannel[] {
  let entry = listCache.get(store);
  if (!entry || entry.version !== store.channelsVersion) {
    entry = { version: store.channelsVersion, lists: new Map() };
    listCache.set(store, entry);
  }
  const key = `${[...types].sort().join(',')}|${excludeArchived}`;
  let list = entry.lists.get(key);
  if (!list) {
    list = store.channels.filter((c) => types.has(c.kind) && store.canSee(c) && !(excludeArchived && c.is_archived));
    entry.lists.set(key, list);
  }
  return list;
}

function parseTypes(raw: string | undefined): Set<string> {
  if (raw === undefined) return new Set(['public_channel']);
  const types = new Set(
    raw
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  );
  if (types.size === 0) return new Set(['public_channel']);
  for (const t of types) if (!CONVERSATION_TYPES.has(t)) throw new SlackError('invalid_types');
  return types;
}

export const conversationsList: MethodDef = {
  write: false,
  handle(ctx) {
    const { store, args } = ctx;
    const types = parseTypes(args.str('types'));
    const list = filteredChannels(store, types, args.bool('exclude_archived', false));
    const limit = pageLimit(ctx, 100, 1000);
    const from = decodeCursor(args.str('cursor'), 'team');
    const start = from === undefined ? 0 : lowerBound(list, from, (c) => c.id);
    const page = list.slice(start, start + limit);
    const next = list[start + limit];
    return {
      ok: true,
      channels: page.map((c) => channelToWire(store, c, { numMembers: true })),
      response_metadata: { next_cursor: next ? encodeCursor('team', next.id) : '' },
    };
  },
};

export const conversationsInfo: MethodDef = {
  write: false,
  handle(ctx) {
    const channel = requireChannel(ctx);
    return {
      ok: true,
      channel: channelToWire(ctx.store, channel, {
        numMembers: ctx.args.bool('include_num_members', false),
        locale: ctx.args.bool('include_locale', false),
      }),
    };
  },
};

export const conversationsCreate: MethodDef = {
  write: true,
  handle({ store, args }) {
    const name = validateChannelName(args.str('name'));
    if (store.nameTaken(name)) throw new SlackError('name_taken');
    const channel = store.createChannel(name, args.bool('is_private', false), store.botUserId);
    return { ok: true, channel: channelToWire(store, channel, { numMembers: false }) };
  },
};

/** Renaming, topics and purposes exist only for channels, not for (group) direct messages. */
function requireManageableChannel(ctx: MethodContext): SandboxChannel {
  const channel = requireChannel(ctx);
  if (channel.kind === 'im' || channel.kind === 'mpim') throw new SlackError('method_not_supported_for_channel_type');
  return channel;
}

export const conversationsRename: MethodDef = {
  write: true,
  handle(ctx) {
    const { store, args } = ctx;
    const channel = requireManageableChannel(ctx);
    if (!store.isBotMember(channel)) throw new SlackError('not_in_channel');
    const name = validateChannelName(args.str('name'));
    if (name !== channel.name && store.nameTaken(name)) throw new SlackError('name_taken');
    store.renameChannel(channel, name, store.botUserId);
    return { ok: true, channel: channelToWire(store, channel, { numMembers: false }) };
  },
};

function setTopicOrPurpose(which: 'topic' | 'purpose'): MethodDef {
  return {
    write: true,
    handle(ctx) {
      const { store, args } = ctx;
      const channel = requireManageableChannel(ctx);
      const value = args.str(which) ?? '';
      if (characterCount(value) > TOPIC_MAX) throw new SlackError('too_long');
      if (channel.is_archived) throw new SlackError('is_archived');
      if (!store.isBotMember(channel)) throw new SlackError('not_in_channel');
      store.setTopicOrPurpose(channel, which, value, store.botUserId);
      return { ok: true, channel: channelToWire(store, channel, { numMembers: false }) };
    },
  };
}

export const conversationsSetTopic = setTopicOrPurpose('topic');
export const conversationsSetPurpose = setTopicOrPurpose('purpose');

/** Slack's answer when the token already belongs to the channel: still ok, with a warning in two places. */
const ALREADY_IN_CHANNEL = 'already_in_channel';

/**
 * Joins the bot to a public channel. Private channels it is not in do not exist for its token
 * (channel_not_found); visible private ones, IMs and MPIMs cannot be joined at all.
 */
export const conversationsJoin: MethodDef = {
  write: true,
  handle(ctx) {
    const { store } = ctx;
    const channel = requireChannel(ctx);
    if (channel.kind !== 'public_channel') throw new SlackError('method_not_supported_for_channel_type');
    if (channel.is_archived) throw new SlackError('is_archived');
    const already = store.isBotMember(channel);
    if (!already) store.joinChannel(channel, store.botUserId);
    const body: Wire = { ok: true, channel: channelToWire(store, channel, { numMembers: false }) };
    if (already) {
      body.warning = ALREADY_IN_CHANNEL;
      body.response_metadata = { warnings: [ALREADY_IN_CHANNEL] };
    }
    return body;
  },
};
