import { IdFactory, Rng } from './prng.ts';
import { formatTs } from './slack-ts.ts';
import type { ConversationType, SandboxBotInfo, SandboxChannel, SandboxData, SandboxMessage, SandboxTeam, SlackUser, TopicValue } from './types.ts';
import { lowerBound } from './cursor.ts';

/** What the seed generator hands to the store; the store derives every index from it. */
export interface SeedData {
  seed: number;
  team: SandboxTeam;
  botUserId: string;
  bots: SandboxBotInfo[];
  users: SlackUser[];
  channels: SandboxChannel[];
  /** Per channel, any order: the store sorts by ts and rebuilds thread bookkeeping. */
  messages: Map<string, SandboxMessage[]>;
}

/** Messages of one conversation, indexed for history (timeline) and replies (threads) queries. */
export interface ConversationMessages {
  /** Everything, oldest first. New messages always get the largest ts, so appends keep order. */
  all: SandboxMessage[];
  /** What conversations.history shows: top-level messages and broadcast replies, oldest first. */
  timeline: SandboxMessage[];
  /** Parent ts -> replies, oldest first. */
  threads: Map<string, SandboxMessage[]>;
  byTs: Map<string, SandboxMessage>;
}

export class SandboxStore implements SandboxData {
  readonly team: SandboxTeam;
  readonly botUserId: string;
  readonly users: SlackUser[];
  readonly channels: SandboxChannel[];
  readonly messages = new Map<string, SandboxMessage[]>();

  private readonly userById = new Map<string, SlackUser>();
  private readonly channelById = new Map<string, SandboxChannel>();
  private readonly channelByName = new Map<string, SandboxChannel>();
  private readonly conversations = new Map<string, ConversationMessages>();
  private readonly botsByBotId = new Map<string, SandboxBotInfo>();
  private readonly botsByUserId = new Map<string, SandboxBotInfo>();
  private readonly ids: IdFactory;
  private readonly userJsonPlain = new Map<string, string>();
  private readonly userJsonWithLocale = new Map<string, string>();
  private lastMicros = 0;
  /** Bumped on every channel change so cached channel listings know to rebuild. */
  channelsVersion = 0;

  constructor(
    seed: SeedData,
    private readonly clock: () => number = Date.now,
  ) {
    this.team = seed.team;
    this.botUserId = seed.botUserId;
    this.users = seed.users.slice().sort((a, b) => compare(a.id, b.id));
    this.channels = seed.channels.slice().sort((a, b) => compare(a.id, b.id));
    this.ids = new IdFactory(Rng.derive(seed.seed, 'runtime-ids'));
    for (const u of this.users) {
      this.userById.set(u.id, u);
      this.ids.reserve(u.id);
    }
    for (const b of seed.bots) {
      this.botsByBotId.set(b.bot_id, b);
      this.botsByUserId.set(b.user_id, b);
      this.ids.reserve(b.bot_id);
    }
    for (const c of this.channels) {
      this.channelById.set(c.id, c);
      if (c.kind !== 'im') this.channelByName.set(c.name, c);
      this.ids.reserve(c.id);
      this.initConversation(c.id);
    }
    for (const [channelId, list] of seed.messages) {
      const sorted = list.slice().sort((a, b) => a.micros - b.micros);
      for (const m of sorted) this.append(channelId, m);
    }
  }

  user(id: string): SlackUser | undefined {
    return this.userById.get(id);
  }

  botByBotId(botId: string): SandboxBotInfo | undefined {
    return this.botsByBotId.get(botId);
  }

  botByUserId(userId: string): SandboxBotInfo | undefined {
    return this.botsByUserId.get(userId);
  }

  /** A user's wire JSON, serialised once: users never change, and users.list pages are hot. */
  userJson(user: SlackUser, includeLocale: boolean): string {
    const cache = includeLocale ? this.userJsonWithLocale : this.userJsonPlain;
    let json = cache.get(user.id);
    if (json === undefined) {
      json = JSON.stringify(includeLocale ? { ...user, locale: 'en-US' } : user);
      cache.set(user.id, json);
    }
    return json;
  }

  userIndexFrom(id: string): number {
    return lowerBound(this.users, id, (u) => u.id);
  }

  channel(id: string): SandboxChannel | undefined {
    return this.channelById.get(id);
  }

  /** A conversation as the bot token sees it: private ones it is not in do not exist for it. */
  visibleChannel(id: string | undefined): SandboxChannel | undefined {
    if (id === undefined) return undefined;
    const c = this.channelById.get(id);
    return c && this.canSee(c) ? c : undefined;
  }

  channelByNameOrId(ref: string | undefined): SandboxChannel | undefined {
    if (ref === undefined) return undefined;
    const byId = this.visibleChannel(ref);
    if (byId) return byId;
    const named = this.channelByName.get(ref.startsWith('#') ? ref.slice(1) : ref);
    return named && this.canSee(named) ? named : undefined;
  }

  canSee(c: SandboxChannel): boolean {
    return c.kind === 'public_channel' || c.members.has(this.botUserId);
  }

  isBotMember(c: SandboxChannel): boolean {
    return c.members.has(this.botUserId);
  }

  nameTaken(name: string): boolean {
    return this.channelByName.has(name);
  }

  conversation(channelId: string): ConversationMessages {
    const conv = this.conversations.get(channelId);
    if (!conv) throw new Error(`no conversation ${channelId}`);
    return conv;
  }

  findMessage(channelId: string, ts: string): SandboxMessage | undefined {
    return this.conversations.get(channelId)?.byTs.get(ts);
  }

  /** A ts strictly greater than every existing one, close to wall-clock time. */
  nextMicros(): number {
    this.lastMicros = Math.max(this.clock() * 1000, this.lastMicros + 1);
    return this.lastMicros;
  }

  createChannel(name: string, isPrivate: boolean, creator: string): SandboxChannel {
    const micros = this.nextMicros();
    const created = Math.floor(micros / 1_000_000);
    const kind: ConversationType = isPrivate ? 'private_channel' : 'public_channel';
    const empty: TopicValue = { value: '', creator: '', last_set: 0 };
    const channel: SandboxChannel = {
      id: this.ids.next('C'),
      kind,
      name,
      created,
      creator,
      is_archived: false,
      is_general: false,
      members: new Set([creator]),
      topic: { ...empty },
      purpose: { ...empty },
      previous_names: [],
      updated: Math.floor(micros / 1000),
    };
    this.channels.splice(
      lowerBound(this.channels, channel.id, (c) => c.id),
      0,
      channel,
    );
    this.channelById.set(channel.id, channel);
    this.channelByName.set(name, channel);
    this.initConversation(channel.id);
    this.channelsVersion++;
    // Slack opens every new channel with the creator's join message.
    this.addJoinMessage(channel, creator, micros + 1);
    return channel;
  }

  /** Adds a member the way Slack does: the member count grows and the channel gets a channel_join message. */
  joinChannel(channel: SandboxChannel, user: string): void {
    channel.members.add(user);
    // Membership decides what the token can see, which cached listings filter on.
    this.channelsVersion++;
    this.addJoinMessage(channel, user);
  }

  renameChannel(channel: SandboxChannel, name: string, by: string): void {
    if (channel.name === name) return;
    const old = channel.name;
    this.channelByName.delete(old);
    channel.previous_names = [old, ...channel.previous_names.filter((n) => n !== old && n !== name)];
    channel.name = name;
    this.channelByName.set(name, channel);
    this.touch(channel);
    this.addSystemMessage(channel, by, 'channel_name', `has renamed the channel from "${old}" to "${name}"`, { old_name: old, name });
  }

  setTopicOrPurpose(channel: SandboxChannel, which: 'topic' | 'purpose', value: string, by: string): void {
    const micros = this.nextMicros();
    channel[which] = { value, creator: by, last_set: Math.floor(micros / 1_000_000) };
    this.touch(channel);
    const text =
      which === 'topic'
        ? value === ''
          ? 'cleared the channel topic'
          : `set the channel topic: ${value}`
        : value === ''
          ? 'cleared the channel description'
          : `set the channel description: ${value}`;
    const extra = which === 'topic' ? { topic: value } : { purpose: value };
    this.addSystemMessage(channel, by, which === 'topic' ? 'channel_topic' : 'channel_purpose', text, extra, micros);
  }

  /**
   * Appends a message (its ts must exceed every ts already in the conversation). A reply updates its
   * parent's thread fields the way Slack does.
   */
  append(channelId: string, m: SandboxMessage): void {
    const conv = this.conversation(channelId);
    conv.all.push(m);
    conv.byTs.set(m.ts, m);
    if (m.micros > this.lastMicros) this.lastMicros = m.micros;
    const isReply = m.thread_ts !== undefined && m.thread_ts !== m.ts;
    if (!isReply || m.subtype === 'thread_broadcast') conv.timeline.push(m);
    if (!isReply) return;
    const parent = conv.byTs.get(m.thread_ts as string);
    if (!parent) throw new Error(`reply ${m.ts} without parent ${m.thread_ts}`);
    let replies = conv.threads.get(parent.ts);
    if (!replies) {
      replies = [];
      conv.threads.set(parent.ts, replies);
    }
    replies.push(m);
    parent.thread_ts = parent.ts;
    parent.reply_count = replies.length;
    const users = parent.reply_users ?? [];
    if (!users.includes(m.user)) users.push(m.user);
    parent.reply_users = users;
    parent.reply_users_count = users.length;
    parent.latest_reply = m.ts;
    parent.is_locked = false;
    parent.subscribed = false;
  }

  /** Thread root of a message: itself unless it is a reply. */
  threadRoot(channelId: string, m: SandboxMessage): SandboxMessage {
    if (m.thread_ts === undefined || m.thread_ts === m.ts) return m;
    return this.findMessage(channelId, m.thread_ts) ?? m;
  }

  private addSystemMessage(
    channel: SandboxChannel,
    user: string,
    subtype: string,
    text: string,
    extra: Partial<SandboxMessage>,
    micros = this.nextMicros(),
  ): void {
    if (micros > this.lastMicros) this.lastMicros = micros;
    this.append(channel.id, {
      ...extra,
      channel: channel.id,
      ts: formatTs(micros),
      micros,
      type: 'message',
      subtype,
      user,
      text: subtype === 'channel_join' ? text : `<@${user}> ${text}`,
    });
  }

  private addJoinMessage(channel: SandboxChannel, user: string, micros = this.nextMicros()): void {
    this.addSystemMessage(channel, user, 'channel_join', `<@${user}> has joined the channel`, {}, micros);
  }

  private touch(channel: SandboxChannel): void {
    channel.updated = Math.max(channel.updated + 1, this.clock());
    this.channelsVersion++;
  }

  private initConversation(channelId: string): void {
    const all: SandboxMessage[] = [];
    this.conversations.set(channelId, { all, timeline: [], threads: new Map(), byTs: new Map() });
    this.messages.set(channelId, all);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
