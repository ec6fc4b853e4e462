import { IdFactory, Rng, ID_ALPHABET } from './prng.ts';
import { formatTs } from './slack-ts.ts';
import type { SeedData } from './store.ts';
import type {
  SandboxBotInfo,
  SandboxChannel,
  SandboxMessage,
  SandboxTeam,
  SlackAttachment,
  SlackReaction,
  SlackUser,
  SlackUserProfile,
  TopicValue,
} from './types.ts';
import {
  APP_BOTS,
  CHANNEL_NAMES,
  FIRST_NAMES,
  LAST_NAMES,
  PROJECT_WORDS,
  PURPOSES,
  SEED_REACTIONS,
  STATUSES,
  TIME_ZONES,
  TITLES,
  TOPICS,
  USER_COLORS,
  WORDS,
} from './vocab.ts';

/** Seeded history ends around this instant (2023-11-14), so no seeded ts depends on the clock. */
export const BASE_EPOCH = 1_700_000_000;
const DAY = 86_400;
const YEAR = 365 * DAY;

export interface SeedSizes {
  seed: number;
  users: number;
  channels: number;
  messagesPerChannel: number;
}

/** Deterministic workspace: same sizes and seed give byte-identical data. */
export function generateSeed(sizes: SeedSizes): SeedData {
  const team = makeTeam(Rng.derive(sizes.seed, 'team'));
  const people = generateUsers(sizes, team);
  const channels = generateChannels(sizes, people);
  const messages = new Map<string, SandboxMessage[]>();
  channels.forEach((c, i) => {
    const count = c.kind === 'im' || c.kind === 'mpim' ? Math.min(sizes.messagesPerChannel, 12) : sizes.messagesPerChannel;
    messages.set(c.id, generateMessages(Rng.derive(sizes.seed, `messages:${i}`), c, count, team, people));
  });
  return { seed: sizes.seed, team, botUserId: people.bot.user_id, bots: people.bots, users: people.users, channels, messages };
}

function makeTeam(rng: Rng): SandboxTeam {
  return { id: `T0${rng.chars(ID_ALPHABET, 9)}`, name: 'Sandbox Workspace', domain: `sandbox-${rng.hex(6)}` };
}

// ---------------------------------------------------------------- users

interface People {
  users: SlackUser[];
  bot: SandboxBotInfo;
  bots: SandboxBotInfo[];
  /** Non-deleted human members (no bots, no Slackbot), in creation order. */
  humans: SlackUser[];
  /** Non-deleted app bots other than the sandbox's own. */
  appBots: SandboxBotInfo[];
  primaryOwner: string;
}

function generateUsers(sizes: SeedSizes, team: SandboxTeam): People {
  const rng = Rng.derive(sizes.seed, 'users');
  const userIds = new IdFactory(Rng.derive(sizes.seed, 'user-ids'));
  const botIds = new IdFactory(Rng.derive(sizes.seed, 'bot-ids'));
  const total = Math.max(1, Math.floor(sizes.users));
  const users: SlackUser[] = [];
  const bots: SandboxBotInfo[] = [];

  const bot: SandboxBotInfo = {
    user_id: userIds.next('U'),
    bot_id: botIds.next('B'),
    app_id: botIds.next('A'),
    name: 'sandbox_bot',
    updated: BASE_EPOCH - 30 * DAY,
  };
  bots.push(bot);
  users.push(botUser(rng, team, bot, 'Sandbox Bot', false));
  if (total >= 2) users.push(slackbot(rng, team));

  const remaining = total - users.length;
  const appBotCount = remaining >= 5 ? Math.min(APP_BOTS.length, Math.max(1, Math.floor(remaining * 0.03))) : 0;
  const appBots: SandboxBotInfo[] = [];
  for (let i = 0; i < appBotCount; i++) {
    const name = APP_BOTS[i] as string;
    const info: SandboxBotInfo = {
      user_id: userIds.next('U'),
      bot_id: botIds.next('B'),
      app_id: botIds.next('A'),
      name,
      updated: BASE_EPOCH - rng.int(DAY, YEAR),
    };
    bots.push(info);
    // One uninstalled app shows up as a deleted bot user, as in long-lived workspaces.
    const deleted = i === 2;
    users.push(botUser(rng, team, info, titleCase(name), deleted));
    if (!deleted) appBots.push(info);
  }

  const humans: SlackUser[] = [];
  const nameCounts = new Map<string, number>();
  const humanCount = total - users.length;
  let primaryOwner = bot.user_id;
  for (let h = 0; h < humanCount; h++) {
    const role = h === 0 ? 'primary' : h === 1 && humanCount >= 4 ? 'deleted' : h === 2 && humanCount >= 6 ? 'guest' : randomRole(rng);
    const user = humanUser(rng, team, userIds.next('U'), role, nameCounts);
    users.push(user);
    if (role === 'primary') primaryOwner = user.id;
    if (!user.deleted) humans.push(user);
  }
  return { users, bot, bots, humans, appBots, primaryOwner };
}

type Role = 'primary' | 'owner' | 'admin' | 'member' | 'guest' | 'single_channel_guest' | 'deleted';

function randomRole(rng: Rng): Role {
  const r = rng.next();
  if (r < 0.07) return 'deleted';
  if (r < 0.1) return 'guest';
  if (r < 0.12) return 'single_channel_guest';
  if (r < 0.16) return 'admin';
  if (r < 0.17) return 'owner';
  return 'member';
}

function humanUser(rng: Rng, team: SandboxTeam, id: string, role: Role, nameCounts: Map<string, number>): SlackUser {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const base = `${first}.${last}`.toLowerCase();
  const seen = nameCounts.get(base) ?? 0;
  nameCounts.set(base, seen + 1);
  const name = seen === 0 ? base : `${base}${seen + 1}`;
  const realName = `${first} ${last}`;
  const displayName = rng.chance(0.55) ? first : '';
  const [tz, tzLabel, tzOffset] = rng.pick(TIME_ZONES);
  const [statusText, statusEmoji] = rng.pick(STATUSES);
  const profile: SlackUserProfile = {
    title: rng.pick(TITLES),
    phone: rng.chance(0.3) ? `+1 555 01${rng.int(10, 99)}` : '',
    skype: '',
    real_name: realName,
    real_name_normalized: realName,
    display_name: displayName,
    display_name_normalized: displayName,
    fields: null,
    status_text: statusText,
    status_emoji: statusEmoji,
    status_emoji_display_info: [],
    status_expiration: 0,
    avatar_hash: rng.hex(12),
    email: `${name}@example.com`,
    first_name: first,
    last_name: last,
    ...gravatarImages(rng.hex(32)),
    status_text_canonical: '',
    team: team.id,
  };
  const updated = BASE_EPOCH - rng.int(0, 2 * YEAR);
  if (role === 'deleted') {
    // Deactivated accounts keep only identity and profile; Slack drops roles, colour and time zone.
    return { id, team_id: team.id, name, deleted: true, profile, is_bot: false, is_app_user: false, updated };
  }
  const guest = role === 'guest' || role === 'single_channel_guest';
  return {
    id,
    team_id: team.id,
    name,
    deleted: false,
    color: rng.pick(USER_COLORS),
    real_name: realName,
    tz,
    tz_label: tzLabel,
    tz_offset: tzOffset,
    profile,
    is_admin: role === 'primary' || role === 'owner' || role === 'admin',
    is_owner: role === 'primary' || role === 'owner',
    is_primary_owner: role === 'primary',
    is_restricted: guest,
    is_ultra_restricted: role === 'single_channel_guest',
    is_bot: false,
    is_app_user: false,
    updated,
    is_email_confirmed: !guest || rng.chance(0.5),
    who_can_share_contact_card: 'EVERYONE',
  };
}

function botUser(rng: Rng, team: SandboxTeam, info: SandboxBotInfo, realName: string, deleted: boolean): SlackUser {
  const [first, ...rest] = realName.split(' ');
  const profile: SlackUserProfile = {
    title: '',
    phone: '',
    skype: '',
    real_name: realName,
    real_name_normalized: realName,
    display_name: '',
    display_name_normalized: '',
    ...noStatus(),
    avatar_hash: rng.hex(12),
    api_app_id: info.app_id,
    always_active: true,
    bot_id: info.bot_id,
    first_name: first ?? realName,
    last_name: rest.join(' '),
    ...botImages(rng),
    status_text_canonical: '',
    team: team.id,
  };
  if (deleted) {
    return { id: info.user_id, team_id: team.id, name: info.name, deleted: true, profile, is_bot: true, is_app_user: false, updated: info.updated };
  }
  return {
    id: info.user_id,
    team_id: team.id,
    name: info.name,
    deleted: false,
    color: rng.pick(USER_COLORS),
    real_name: realName,
    tz: 'America/Los_Angeles',
    tz_label: 'Pacific Standard Time',
    tz_offset: -28800,
    profile,
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: true,
    is_app_user: false,
    updated: info.updated,
    is_email_confirmed: false,
    who_can_share_contact_card: 'EVERYONE',
  };
}

/** Slackbot is listed by users.list in every workspace, and (oddly) with is_bot false. */
function slackbot(rng: Rng, team: SandboxTeam): SlackUser {
  return {
    id: 'USLACKBOT',
    team_id: team.id,
    name: 'slackbot',
    deleted: false,
    color: '757575',
    real_name: 'Slackbot',
    tz: 'America/Los_Angeles',
    tz_label: 'Pacific Standard Time',
    tz_offset: -28800,
    profile: {
      title: '',
      phone: '',
      skype: '',
      real_name: 'Slackbot',
      real_name_normalized: 'Slackbot',
      display_name: 'Slackbot',
      display_name_normalized: 'Slackbot',
      ...noStatus(),
      avatar_hash: rng.hex(12),
      always_active: true,
      first_name: 'slackbot',
      last_name: '',
      ...botImages(rng),
      status_text_canonical: '',
      team: team.id,
    },
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: false,
    is_app_user: false,
    updated: 0,
    is_email_confirmed: false,
    who_can_share_contact_card: 'EVERYONE',
  };
}

type ImageFields = Pick<SlackUserProfile, 'image_24' | 'image_32' | 'image_48' | 'image_72' | 'image_192' | 'image_512'>;

function gravatarImages(hash: string): ImageFields {
  const url = (size: number) =>
    `https://secure.gravatar.com/avatar/${hash}.jpg?s=${size}&d=https%3A%2F%2Fa.slack-edge.com%2Fdf10d%2Fimg%2Favatars%2Fava_0001-${size}.png`;
  return { image_24: url(24), image_32: url(32), image_48: url(48), image_72: url(72), image_192: url(192), image_512: url(512) };
}

function botImages(rng: Rng): ImageFields {
  const stem = `https://avatars.slack-edge.com/2023-10-01/${rng.int(1_000_000_000, 9_999_999_999)}_${rng.hex(20)}`;
  const url = (size: number) => `${stem}_${size}.png`;
  return { image_24: url(24), image_32: url(32), image_48: url(48), image_72: url(72), image_192: url(192), image_512: url(512) };
}

function titleCase(name: string): string {
  return name
    .split('_')
    .map((w) => (w === 'github' ? 'GitHub' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

// ---------------------------------------------------------------- channels

interface ChannelPlan {
  private: boolean;
  archived: boolean;
  botMember: boolean;
}

/**
 * The first channels have fixed traits so every workspace offers the cases tests need: a public
 * channel the bot is not in, an archived one it is in, a private one it is in and one it cannot see.
 */
const FIXED_PLANS: ChannelPlan[] = [
  { private: false, archived: false, botMember: true }, // general
  { private: false, archived: false, botMember: true }, // random
  { private: false, archived: false, botMember: false },
  { private: false, archived: true, botMember: true },
  { private: true, archived: false, botMember: true },
  { private: true, archived: false, botMember: false },
];

function generateChannels(sizes: SeedSizes, people: People): SandboxChannel[] {
  const rng = Rng.derive(sizes.seed, 'channels');
  const ids = new IdFactory(Rng.derive(sizes.seed, 'channel-ids'));
  const botId = people.bot.user_id;
  const humans = people.humans;
  const humanIds = humans.map((u) => u.id);
  const pickCreator = (): string => (humans.length > 0 ? rng.pick(humanIds) : botId);
  const channels: SandboxChannel[] = [];
  const names = new Set<string>();
  const count = Math.max(0, Math.floor(sizes.channels));

  for (let i = 0; i < count; i++) {
    const plan = FIXED_PLANS[i] ?? randomPlan(rng);
    const name = channelName(i, names);
    const isGeneral = i === 0;
    const created = BASE_EPOCH - (isGeneral ? 3 * YEAR : rng.int(60 * DAY, 3 * YEAR - DAY));
    const creator = i <= 1 ? people.primaryOwner : pickCreator();
    let members: Set<string>;
    if (isGeneral) {
      // Everyone except guests, who only join the channels they are invited to.
      members = new Set(humans.filter((u) => !u.is_restricted).map((u) => u.id));
      for (const b of people.appBots) members.add(b.user_id);
    } else {
      const size = humans.length === 0 ? 0 : rng.int(Math.min(2, humans.length), Math.min(40, humans.length));
      members = new Set(rng.sample(humanIds, size));
      for (const b of people.appBots) if (rng.chance(0.3)) members.add(b.user_id);
    }
    if (creator !== botId) members.add(creator);
    if (plan.botMember) members.add(botId);
    else members.delete(botId);
    const topic = isGeneral
      ? topicValue('Company-wide announcements and work-based matters', people.primaryOwner, created)
      : maybeTopic(rng, TOPICS, members, created, botId);
    const purpose = isGeneral
      ? topicValue('This channel is for team-wide communication and announcements. All team members are in this channel.', people.primaryOwner, created)
      : i === 1
        ? topicValue('A place for non-work-related chatter, banter and water-cooler conversation.', people.primaryOwner, created)
        : maybeTopic(rng, PURPOSES, members, created, botId);
    const channel: SandboxChannel = {
      id: ids.next('C'),
      kind: plan.private ? 'private_channel' : 'public_channel',
      name,
      created,
      creator,
      is_archived: plan.archived,
      is_general: isGeneral,
      members,
      topic,
      purpose,
      previous_names: !isGeneral && rng.chance(0.15) ? [`old-${name}`] : [],
      updated: (created + rng.int(DAY, 30 * DAY)) * 1000 + rng.int(0, 999),
    };
    if (rng.chance(0.3)) {
      channel.properties = {
        tabs: [
          { id: 'files', label: '', type: 'files' },
          { id: 'bookmarks', label: '', type: 'bookmarks' },
        ],
      };
    }
    channels.push(channel);
  }

  // Direct messages with the first two people and one group DM, as a bot accumulates over time.
  const dmPartners = humans.slice(0, 2);
  for (const partner of dmPartners) {
    const created = BASE_EPOCH - rng.int(30 * DAY, YEAR);
    channels.push({
      id: ids.next('D'),
      kind: 'im',
      name: partner.id,
      created,
      creator: botId,
      is_archived: false,
      is_general: false,
      members: new Set([botId, partner.id]),
      topic: topicValue('', '', 0),
      purpose: topicValue('', '', 0),
      previous_names: [],
      updated: created * 1000 + rng.int(0, 999),
      user: partner.id,
    });
  }
  if (humans.length >= 3) {
    const pair = humans.slice(1, 3);
    const created = BASE_EPOCH - rng.int(30 * DAY, YEAR);
    const who = [...pair.map((u) => u.name), people.bot.name];
    channels.push({
      id: ids.next('C'),
      kind: 'mpim',
      name: `mpdm-${who.join('--')}-1`,
      created,
      creator: pair[0]?.id ?? botId,
      is_archived: false,
      is_general: false,
      members: new Set([botId, ...pair.map((u) => u.id)]),
      topic: topicValue('', '', 0),
      purpose: topicValue(`Group messaging with: ${who.map((n) => `@${n}`).join(' ')}`, pair[0]?.id ?? '', created),
      previous_names: [],
      updated: created * 1000 + rng.int(0, 999),
    });
  }
  return channels;
}

function randomPlan(rng: Rng): ChannelPlan {
  const isPrivate = rng.chance(0.2);
  return { private: isPrivate, archived: rng.chance(0.12), botMember: rng.chance(isPrivate ? 0.85 : 0.8) };
}

function channelName(i: number, taken: Set<string>): string {
  let name: string;
  if (i === 0) name = 'general';
  else if (i === 1) name = 'random';
  else if (i - 2 < CHANNEL_NAMES.length) name = CHANNEL_NAMES[i - 2] as string;
  else {
    const k = i - 2 - CHANNEL_NAMES.length;
    name = `proj-${PROJECT_WORDS[k % PROJECT_WORDS.length]}-${Math.floor(k / PROJECT_WORDS.length) + 1}`;
  }
  taken.add(name);
  return name;
}

function topicValue(value: string, creator: string, lastSet: number): TopicValue {
  return { value, creator, last_set: lastSet };
}

function maybeTopic(rng: Rng, values: readonly string[], members: Set<string>, created: number, botId: string): TopicValue {
  if (!rng.chance(0.7)) return topicValue('', '', 0);
  const people = [...members].filter((m) => m !== botId);
  const creator = people.length > 0 ? rng.pick(people) : botId;
  return topicValue(rng.pick(values), creator, created + rng.int(DAY, 60 * DAY));
}

// ---------------------------------------------------------------- messages

const BOT_TEXTS = [
  'Daily digest: 4 new tickets, 7 closed.',
  'Reminder: retro notes are due by Friday.',
  'Weekly metrics report is ready.',
  'Heads up: maintenance window tonight at 22:00 UTC.',
  'Sync finished: 128 records updated.',
] as const;

const APP_TEXTS = [
  'Build #%n passed on main',
  'Deploy %n to production finished',
  'New issue opened: flaky test in checkout #%n',
  'Incident #%n resolved',
  'Pull request #%n merged',
] as const;

function generateMessages(rng: Rng, channel: SandboxChannel, count: number, team: SandboxTeam, people: People): SandboxMessage[] {
  if (count <= 0) return [];
  const botId = people.bot.user_id;
  const members = [...channel.members];
  const humanPool = members.filter((m) => m !== botId && !people.appBots.some((b) => b.user_id === m));
  const appPool = people.appBots.filter((b) => channel.members.has(b.user_id));
  const botIsMember = channel.members.has(botId);
  const authors = humanPool.length > 0 ? humanPool : [botId];

  const gapSeconds = rng.int(20 * 60, 3 * 3600);
  const start = BASE_EPOCH - count * gapSeconds - rng.int(0, DAY);
  // Channels are created before their first message.
  channel.created = Math.min(channel.created, start - rng.int(3600, 30 * DAY));
  if (channel.topic.last_set > 0 && channel.topic.last_set < channel.created) channel.topic.last_set = channel.created;
  if (channel.purpose.last_set > 0 && channel.purpose.last_set < channel.created) channel.purpose.last_set = channel.created;

  const used = new Set<number>();
  const claim = (micros: number): number => {
    let m = micros;
    while (used.has(m)) m++;
    used.add(m);
    return m;
  };
  const out: SandboxMessage[] = [];
  let t = start * 1_000_000;
  const isConversation = channel.kind === 'im' || channel.kind === 'mpim';

  for (let k = 0; k < count; k++) {
    t += rng.int(Math.floor(gapSeconds / 4), Math.floor((gapSeconds * 7) / 4)) * 1_000_000 + rng.int(0, 999_999);
    const micros = claim(t);
    t = micros;
    if (k === 0 && !isConversation) {
      out.push(systemMessage(channel.id, micros, channel.creator, 'channel_join', `<@${channel.creator}> has joined the channel`));
      continue;
    }
    // Every channel gets one sizeable thread started by a person, so tests always find one.
    const forcedThread = !isConversation && k === Math.min(2, count - 1) && humanPool.length > 0;
    const r = forcedThread ? 1 : rng.next();
    let m: SandboxMessage;
    if (botIsMember && r < 0.08) m = botMessage(rng, channel.id, micros, people.bot, team, rng.pick(BOT_TEXTS), false);
    else if (appPool.length > 0 && r < 0.13) {
      const app = rng.pick(appPool);
      m = botMessage(rng, channel.id, micros, app, team, rng.pick(APP_TEXTS).replace('%n', String(rng.int(100, 9999))), true);
    } else if (humanPool.length === 0) m = botMessage(rng, channel.id, micros, people.bot, team, rng.pick(BOT_TEXTS), false);
    else m = humanMessage(rng, channel.id, micros, rng.pick(humanPool), team, members);
    if (humanPool.length > 0 && rng.chance(0.2)) m.reactions = seedReactions(rng, humanPool);
    out.push(m);

    if (forcedThread || rng.chance(0.15)) {
      const replyCount = forcedThread ? rng.int(3, 6) : rng.int(1, 6);
      let rt = micros;
      for (let j = 0; j < replyCount; j++) {
        rt += rng.int(30, 4 * 3600) * 1_000_000 + rng.int(0, 999_999);
        const replyMicros = claim(rt);
        rt = replyMicros;
        const author = rng.chance(0.3) ? m.user : rng.chance(0.1) && botIsMember ? botId : rng.pick(authors);
        const app = appPool.find((b) => b.user_id === author);
        const reply =
          author === botId
            ? botMessage(rng, channel.id, replyMicros, people.bot, team, 'Noted, I will follow up on this.', false)
            : app
              ? botMessage(rng, channel.id, replyMicros, app, team, 'Status updated.', false)
              : humanMessage(rng, channel.id, replyMicros, author, team, members);
        reply.thread_ts = m.ts;
        reply.parent_user_id = m.user;
        if (humanPool.length > 0 && rng.chance(0.1)) reply.reactions = seedReactions(rng, humanPool);
        out.push(reply);
      }
    }
  }
  return out;
}

function systemMessage(channel: string, micros: number, user: string, subtype: string, text: string): SandboxMessage {
  return { channel, ts: formatTs(micros), micros, type: 'message', subtype, user, text };
}

function humanMessage(rng: Rng, channel: string, micros: number, user: string, team: SandboxTeam, members: string[]): SandboxMessage {
  const mention = rng.chance(0.12) && members.length > 0 ? rng.pick(members) : undefined;
  let body = sentence(rng);
  if (rng.chance(0.25)) body += ` ${sentence(rng)}`;
  if (rng.chance(0.08)) body += ` <https://example.com/docs/${rng.int(100, 999)}|docs>`;
  if (rng.chance(0.1)) body += ` :${rng.pick(SEED_REACTIONS)}:`;
  const text = mention ? `<@${mention}> ${body}` : body;
  const elements: unknown[] = mention
    ? [
        { type: 'user', user_id: mention },
        { type: 'text', text: ` ${body}` },
      ]
    : [{ type: 'text', text: body }];
  const m: SandboxMessage = {
    channel,
    ts: formatTs(micros),
    micros,
    type: 'message',
    user,
    text,
    team: team.id,
    client_msg_id: rng.uuid().toLowerCase(),
    blocks: [
      {
        type: 'rich_text',
        block_id: rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 5),
        elements: [{ type: 'rich_text_section', elements }],
      },
    ],
  };
  if (rng.chance(0.04)) m.edited = { user, ts: formatTs(micros + rng.int(60, 3600) * 1_000_000) };
  return m;
}

function botMessage(rng: Rng, channel: string, micros: number, bot: SandboxBotInfo, team: SandboxTeam, text: string, withAttachment: boolean): SandboxMessage {
  const m: SandboxMessage = {
    channel,
    ts: formatTs(micros),
    micros,
    type: 'message',
    user: bot.user_id,
    text,
    team: team.id,
    bot_id: bot.bot_id,
    app_id: bot.app_id,
  };
  if (withAttachment && rng.chance(0.5)) {
    const n = rng.int(1000, 9999);
    const attachment: SlackAttachment = {
      id: 1,
      fallback: text,
      color: rng.pick(['36a64f', 'daa038', 'a30200']),
      title: text,
      title_link: `https://example.com/${bot.name}/${n}`,
      text: sentence(rng),
      footer: titleCase(bot.name),
      ts: Math.floor(micros / 1_000_000),
    };
    m.attachments = [attachment];
  }
  return m;
}

/** Reactors are people only: the sandbox's bot never has a seeded reaction, so its first reactions.add succeeds. */
function seedReactions(rng: Rng, reactors: string[]): SlackReaction[] {
  const names = rng.sample(SEED_REACTIONS, rng.int(1, 3));
  return names.map((name) => {
    const users = rng.sample(reactors, rng.int(1, Math.min(5, reactors.length)));
    return { name, users, count: users.length };
  });
}

function sentence(rng: Rng): string {
  const n = rng.int(4, 16);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const first = words[0] ?? 'ok';
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(' ') + rng.pick(['.', '.', '.', '?', '!']);
}

/** Profile fields of a member who set no status (bots, Slackbot); a fresh object each time, as profiles are per user. */
function noStatus() {
  return { fields: null, status_text: '', status_emoji: '', status_emoji_display_info: [] as unknown[], status_expiration: 0 };
}
