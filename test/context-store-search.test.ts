import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotReadyError, type PlugboardError, ValidationError, type ValidationIssue } from '../core/errors.ts';
import type { SearchHit } from '../core/hosted/context-store/context-store.ts';
import type { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { wordsOf } from '../core/hosted/context-store/words.ts';
import { type ChatFixture, startChatFixture } from './helpers/chat-fixture.ts';
import { openTestContextStore } from './helpers/context-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';
import { type Document, documentsOf, type ReferenceHit, type ReferenceQuery, referenceSearch } from './helpers/search-reference.ts';

/**
 * The context store's search against an in-memory reference (test/helpers/search-reference.ts),
 * on the chat connector's own list results from the Slack sandbox, for SQLite and PostgreSQL.
 */

type EntityName = 'users' | 'channels' | 'channel_messages';
const ENTITIES: EntityName[] = ['users', 'channels', 'channel_messages'];

interface EntityData {
  catalog: FieldCatalog;
  records: Record<string, unknown>[];
  documents: Document[];
}

type ContextStore = Awaited<ReturnType<typeof createContextStore>>;
type FieldsParam = (string | string[])[];

const QUERY_LOC = ['body', 'params', 'query'];
const FILTER_LOC = [...QUERY_LOC, 'filter'];
/** Messages are read from this many channels the bot is a member of. */
const MESSAGE_CHANNELS = 6;

let fx: ChatFixture;
const data = {} as Record<EntityName, EntityData>;
let P: Picks;

/** Every record of a list action, page after page (the connector's own pagination). */
async function listAll(entity: EntityName, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const paginate = fx.chat.paginate.bind(fx.chat) as unknown as (request: {
    entity: string;
    action: string;
    params: unknown;
  }) => AsyncIterable<Record<string, unknown>>;
  const records: Record<string, unknown>[] = [];
  for await (const record of paginate({ entity, action: 'list', params })) records.push(record);
  return records;
}

beforeAll(async () => {
  fx = await startChatFixture({ users: 300, channels: 40, messagesPerChannel: 30 });
  const catalogs = fx.plugin.searchCatalogs();
  const users = await listAll('users', { limit: 200 });
  const channels = await listAll('channels', { limit: 200, types: 'public_channel,private_channel,mpim,im' });
  const memberChannels = channels.filter((channel) => channel.is_member === true && channel.is_im !== true).slice(0, MESSAGE_CHANNELS);
  const messages: Record<string, unknown>[] = [];
  for (const channel of memberChannels) {
    // The upstream message lacks its channel; the document's id is <channel_id>:<ts>.
    for (const message of await listAll('channel_messages', { channel: channel.id, limit: 200 })) messages.push({ ...message, channel_id: channel.id });
  }
  const raw: Record<EntityName, Record<string, unknown>[]> = { users, channels, channel_messages: messages };
  for (const entity of ENTITIES) {
    const catalog = catalogs.get(entity);
    if (!catalog) throw new Error(`the chat connector declares no search catalog for ${entity}`);
    data[entity] = { catalog, records: raw[entity], documents: documentsOf(catalog, raw[entity]) };
  }
  P = picks();
});

afterAll(async () => {
  await fx?.sandbox.close();
});

// ---------------------------------------------------------------------------------------------
// Values for the filters, taken from the data so every filter matches something.

/** The value at a dot path of a document. */
function at(document: Document, path: string): unknown {
  let value: unknown = document;
  for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function text(document: Document, path: string): string {
  const value = at(document, path);
  if (typeof value !== 'string') throw new Error(`${String(document.id)}: ${path} is not a string`);
  return value;
}

function num(document: Document, path: string): number {
  const value = at(document, path);
  if (typeof value !== 'number') throw new Error(`${String(document.id)}: ${path} is not a number`);
  return value;
}

/** One character replaced in the middle: a typo one edit away. */
function typo(word: string): string {
  const middle = Math.floor(word.length / 2);
  const replacement = word[middle] === 'x' ? 'q' : 'x';
  return word.slice(0, middle) + replacement + word.slice(middle + 1);
}

function picks() {
  const users = data.users.documents;
  const channels = data.channels.documents;
  const messages = data.channel_messages.documents;
  const user = users[4]!;
  const user2 = users[9]!;
  const user3 = users[20]!;
  // A real-name word of 6+ letters, with one letter dropped.
  const longName = users
    .slice(4)
    .flatMap((u) => String(u.real_name ?? '').split(' '))
    .find((word) => word.length >= 6);
  if (!longName) throw new Error('no real name word of 6 letters');
  const realNameTypo = longName.slice(0, 2) + longName.slice(3);
  const updated = users
    .map((u) => at(u, 'updated'))
    .filter((v): v is number => typeof v === 'number')
    .sort((a, b) => a - b);
  // Message words that occur in a few messages (not too common, not unique), longest first.
  const frequency = new Map<string, number>();
  for (const m of messages) for (const word of new Set(wordsOf(String(m.text ?? '')))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const words = [...frequency]
    .filter(([word, count]) => count >= 3 && count <= 20 && word.length >= 6 && /^[a-z]+$/.test(word))
    .sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1))
    .map(([word]) => word);
  if (words.length < 4) throw new Error('too few message words');
  const threaded = messages.find((m) => Array.isArray(m.reply_users) && m.reply_users.length >= 2);
  const reacted = messages.filter((m) => Array.isArray(m.reactions) && m.reactions.length >= 2);
  if (!threaded || reacted.length === 0) throw new Error('no threaded or reacted message');
  const reaction = (reacted[0]!.reactions as { name: string; users: string[]; count: number }[])[0]!;
  const topicChannels = channels.filter((c) => typeof at(c, 'topic.value') === 'string' && text(c, 'topic.value').length > 0);
  const renamed = channels.find((c) => Array.isArray(c.previous_names) && c.previous_names.length > 0);
  if (!renamed) throw new Error('no renamed channel');
  const topicWord = (c: Document) => wordsOf(text(c, 'topic.value')).find((word) => word.length >= 5)!;
  return {
    user,
    user2,
    user3,
    firstName: text(user, 'profile.first_name'),
    lastName: text(user, 'profile.last_name'),
    lastName2: text(user2, 'profile.last_name'),
    longName,
    realNameTypo,
    medianUpdated: updated[Math.floor(updated.length / 2)]!,
    lateUpdated: updated[Math.floor((updated.length * 9) / 10)]!,
    words,
    threaded,
    replyUser: (threaded.reply_users as string[])[1]!,
    reaction,
    messageUser: text(messages[3]!, 'user'),
    messageTs: text(messages[Math.floor(messages.length / 2)]!, 'ts'),
    // Two runs of a message containing the first word, in order, upper case: `%RUN%RUN%`.
    likeRuns: (() => {
      const body = text(messages.find((m) => wordsOf(String(m.text ?? '')).includes(words[0]!))!, 'text').replace(/[%_]/g, ' ');
      const start = body.toLowerCase().indexOf(words[0]!);
      return `%${body.slice(start, start + 5).toUpperCase()}%${body.slice(-6, -1).toUpperCase()}%`;
    })(),
    channel: topicChannels[1]!,
    topicWord1: topicWord(topicChannels[0]!),
    topicWord2: topicWord(topicChannels.find((c) => text(c, 'topic.value') !== text(topicChannels[0]!, 'topic.value'))!),
    previousName: (renamed.previous_names as string[])[0]!,
    channelName: text(channels.find((c) => typeof c.name === 'string' && text(c, 'name').includes('-'))!, 'name'),
    teamId: text(user, 'team_id'),
  };
}

type Picks = ReturnType<typeof picks>;

// ---------------------------------------------------------------------------------------------
// The table: each query runs on the store and on the reference.

interface Case {
  name: string;
  entity: EntityName;
  query: (p: Picks) => ReferenceQuery;
  fields?: FieldsParam;
  /** Matches every record, or none, on purpose (the default asserts some but not all). */
  anyCount?: true;
}

const CASES: Case[] = [
  // users: booleans
  { entity: 'users', name: 'eq boolean is_bot true', query: () => ({ filter: { eq: { is_bot: true } } }) },
  { entity: 'users', name: 'eq boolean deleted false', query: () => ({ filter: { eq: { deleted: false } } }) },
  { entity: 'users', name: 'in booleans is_admin [true]', query: () => ({ filter: { in: { is_admin: [true] } } }) },
  { entity: 'users', name: 'neq is_admin false (includes nulls)', query: () => ({ filter: { neq: { is_admin: false } } }) },
  { entity: 'users', name: 'not eq is_admin false (includes nulls)', query: () => ({ filter: { not: { eq: { is_admin: false } } } }) },
  // users: strings
  { entity: 'users', name: 'eq name of the 5th user', query: (p) => ({ filter: { eq: { name: p.user.name } } }) },
  { entity: 'users', name: 'eq real_name', query: (p) => ({ filter: { eq: { real_name: p.user.real_name } } }) },
  { entity: 'users', name: 'eq profile.email', query: (p) => ({ filter: { eq: { 'profile.email': text(p.user, 'profile.email') } } }) },
  {
    entity: 'users',
    name: 'neq profile.email (absent in some profiles)',
    query: (p) => ({ filter: { neq: { 'profile.email': text(p.user, 'profile.email') } } }),
  },
  {
    entity: 'users',
    name: 'in name (with a name nobody has)',
    query: (p) => ({ filter: { in: { name: [p.user.name, p.user2.name, p.user3.name, 'nobody.at.all'] } } }),
  },
  {
    entity: 'users',
    name: 'in name and in id, with values an array literal must quote (PostgreSQL binds them as one)',
    query: (p) => ({
      filter: {
        in: { name: [p.user.name, 'a"b', 'c\\d', 'e,f', '{g}', 'NULL', '', ' h '], id: [String(p.user.id), String(p.user2.id), 'x"}', 'NULL'] },
      },
    }),
  },
  { entity: 'users', name: 'string range gte/lt on name', query: () => ({ filter: { gte: { name: 'f' }, lt: { name: 'm' } } }) },
  {
    entity: 'users',
    name: 'string range gt/lte on profile.email',
    query: (p) => ({ filter: { gt: { 'profile.email': text(p.user, 'profile.email') }, lte: { 'profile.email': 'r' } } }),
  },
  { entity: 'users', name: 'lt on tz (string) with uppercase bound', query: () => ({ filter: { lt: { tz: 'Asia' } } }) },
  // users: numbers
  { entity: 'users', name: 'eq tz_offset', query: (p) => ({ filter: { eq: { tz_offset: num(p.user, 'tz_offset') } } }) },
  { entity: 'users', name: 'gt tz_offset 0', query: () => ({ filter: { gt: { tz_offset: 0 } } }) },
  { entity: 'users', name: 'gte tz_offset 0 (zero included)', query: () => ({ filter: { gte: { tz_offset: 0 } } }) },
  { entity: 'users', name: 'lt tz_offset -18000', query: () => ({ filter: { lt: { tz_offset: -18000 } } }) },
  { entity: 'users', name: 'lte tz_offset -18000', query: () => ({ filter: { lte: { tz_offset: -18000 } } }) },
  { entity: 'users', name: 'in tz_offset', query: () => ({ filter: { in: { tz_offset: [-28800, 3600, 0, 12345] } } }) },
  {
    entity: 'users',
    name: 'updated range (gte median, lt 90th percentile)',
    query: (p) => ({ filter: { gte: { updated: p.medianUpdated }, lt: { updated: p.lateUpdated } } }),
  },
  { entity: 'users', name: 'neq tz_offset 0 (includes nulls)', query: () => ({ filter: { neq: { tz_offset: 0 } } }) },
  // users: like
  { entity: 'users', name: 'like name without wildcards (substring)', query: (p) => ({ filter: { like: { name: p.firstName.toLowerCase() } } }) },
  { entity: 'users', name: 'like real_name without wildcards, upper case', query: (p) => ({ filter: { like: { real_name: p.lastName.toUpperCase() } } }) },
  { entity: 'users', name: 'like real_name prefix with %', query: (p) => ({ filter: { like: { real_name: `${p.firstName.slice(0, 2)}%` } } }) },
  { entity: 'users', name: 'like real_name with _ and %', query: (p) => ({ filter: { like: { real_name: `_${p.firstName.slice(1, 3).toUpperCase()}%` } } }) },
  {
    entity: 'users',
    name: 'like profile.email suffix',
    query: (p) => ({ filter: { like: { 'profile.email': `%.${p.lastName.toLowerCase()}@example.com` } } }),
  },
  {
    entity: 'users',
    name: 'like profile.email substring, mixed case',
    query: (p) => ({ filter: { like: { 'profile.email': `${p.lastName2.slice(-3).toUpperCase()}@EXAMPLE` } } }),
  },
  { entity: 'users', name: 'like on a non-indexed field (tz) with _', query: () => ({ filter: { like: { tz: 'asia/_____' } } }) },
  { entity: 'users', name: 'like tz with %_% run', query: () => ({ filter: { like: { tz: '%o_%' } } }) },
  // users: keyword and fuzzy
  {
    entity: 'users',
    name: 'keyword real_name, 3 words (shares 1/3, 2/3)',
    query: (p) => ({ filter: { keyword: { real_name: `${p.firstName} ${p.lastName2} zzqxq` } } }),
  },
  { entity: 'users', name: 'keyword profile.title', query: () => ({ filter: { keyword: { 'profile.title': 'Engineering Manager' } } }) },
  { entity: 'users', name: 'fuzzy real_name with a typo', query: (p) => ({ filter: { fuzzy: { real_name: p.realNameTypo } } }) },
  {
    entity: 'users',
    name: 'fuzzy real_name: exact word + prefix',
    query: (p) => ({ filter: { fuzzy: { real_name: `${p.firstName} ${p.lastName.slice(0, 2)}` } } }),
  },
  { entity: 'users', name: 'fuzzy name (words of a user name)', query: (p) => ({ filter: { fuzzy: { name: `${p.lastName.toLowerCase()}` } } }) },
  { entity: 'users', name: 'fuzzy profile.display_name prefix', query: () => ({ filter: { fuzzy: { 'profile.display_name': 'sa' } } }) },
  // users: nesting
  {
    entity: 'users',
    name: 'and/or/not nested',
    query: () => ({ filter: { and: [{ or: [{ eq: { is_admin: true } }, { gt: { tz_offset: 20000 } }] }, { not: { eq: { deleted: true } } }] } }),
  },
  {
    entity: 'users',
    name: 'or of keyword and a plain branch (plain hits score 1)',
    query: (p) => ({ filter: { or: [{ keyword: { real_name: `${p.firstName} zzqxq` } }, { eq: { tz_offset: 19800 } }] } }),
  },
  {
    entity: 'users',
    name: 'and of keyword and fuzzy (product of scores)',
    query: (p) => ({
      filter: { and: [{ keyword: { real_name: `${p.firstName} ${p.lastName2}` } }, { fuzzy: { 'profile.real_name': p.firstName.slice(0, 3) } }] },
    }),
  },
  {
    entity: 'users',
    name: 'two operators in one object, several fields in one operator',
    query: () => ({ filter: { eq: { is_bot: false, deleted: false }, gte: { tz_offset: 3600 } } }),
  },
  {
    entity: 'users',
    name: 'or with a single keyword branch',
    query: (p) => ({ filter: { or: [{ keyword: { real_name: `${p.firstName} ${p.lastName2}` } }] } }),
  },
  { entity: 'users', name: 'not around a keyword (score 1)', query: (p) => ({ filter: { not: { keyword: { real_name: p.firstName } } } }) },
  // users: sorting and projection
  { entity: 'users', name: 'sort tz_offset asc (nulls last)', query: () => ({ sort: [{ tz_offset: 'asc' }] }), anyCount: true },
  { entity: 'users', name: 'sort tz_offset desc (nulls last)', query: () => ({ sort: [{ tz_offset: 'desc' }] }), anyCount: true },
  { entity: 'users', name: 'sort profile.email desc (absent last)', query: () => ({ sort: [{ 'profile.email': 'desc' }] }), anyCount: true },
  { entity: 'users', name: 'sort real_name desc (null on deleted users)', query: () => ({ filter: { lt: { tz_offset: 0 } }, sort: [{ real_name: 'desc' }] }) },
  { entity: 'users', name: 'sort is_admin desc, name asc', query: () => ({ sort: [{ is_admin: 'desc' }, { name: 'asc' }] }), anyCount: true },
  {
    entity: 'users',
    name: 'sort before score: keyword sorted by tz desc',
    query: (p) => ({ filter: { keyword: { real_name: `${p.firstName} ${p.lastName2} ${p.lastName}` } }, sort: [{ tz: 'desc' }] }),
  },
  {
    entity: 'users',
    name: 'fields as dot paths',
    query: () => ({ filter: { eq: { is_admin: true } } }),
    fields: ['id', 'real_name', 'profile.email', 'profile.title'],
  },
  {
    entity: 'users',
    name: 'fields as lists of keys (email absent in some profiles)',
    query: () => ({ filter: { eq: { deleted: false } }, sort: [{ 'profile.email': 'asc' }] }),
    fields: [['profile', 'email'], ['id'], ['tz_offset']],
  },
  // channels
  { entity: 'channels', name: 'eq is_private true', query: () => ({ filter: { eq: { is_private: true } } }) },
  { entity: 'channels', name: 'or is_im / is_mpim', query: () => ({ filter: { or: [{ eq: { is_im: true } }, { eq: { is_mpim: true } }] } }) },
  { entity: 'channels', name: 'eq topic.value', query: (p) => ({ filter: { eq: { 'topic.value': text(p.channel, 'topic.value') } } }) },
  { entity: 'channels', name: 'neq topic.value (topic null on DMs)', query: (p) => ({ filter: { neq: { 'topic.value': text(p.channel, 'topic.value') } } }) },
  {
    entity: 'channels',
    name: 'keyword topic.value, two topics',
    query: (p) => ({ filter: { keyword: { 'topic.value': `${p.topicWord1} ${p.topicWord2}` } } }),
  },
  { entity: 'channels', name: 'fuzzy topic.value with a typo', query: (p) => ({ filter: { fuzzy: { 'topic.value': typo(p.topicWord1) } } }) },
  { entity: 'channels', name: 'fuzzy name with a typo', query: (p) => ({ filter: { fuzzy: { name: typo(p.channelName.split('-')[0]!) } } }) },
  { entity: 'channels', name: 'num_members between 10 and 36', query: () => ({ filter: { gte: { num_members: 10 }, lte: { num_members: 36 } } }) },
  { entity: 'channels', name: 'num_members gt 36 or lt 6', query: () => ({ filter: { or: [{ gt: { num_members: 36 } }, { lt: { num_members: 6 } }] } }) },
  { entity: 'channels', name: 'contains previous_names', query: (p) => ({ filter: { contains: { previous_names: p.previousName } } }) },
  { entity: 'channels', name: 'eq previous_names[] (same as contains)', query: (p) => ({ filter: { eq: { 'previous_names[]': p.previousName } } }) },
  { entity: 'channels', name: 'like previous_names[] old-%', query: () => ({ filter: { like: { 'previous_names[]': 'old-%' } } }) },
  { entity: 'channels', name: 'contains shared_team_ids (null on DMs)', query: (p) => ({ filter: { contains: { shared_team_ids: p.teamId } } }) },
  { entity: 'channels', name: 'like name with _ (one character)', query: (p) => ({ filter: { like: { name: p.channelName.replace('-', '_') } } }) },
  { entity: 'channels', name: 'like name_normalized prefix', query: (p) => ({ filter: { like: { name_normalized: `${p.channelName.slice(0, 3)}%` } } }) },
  { entity: 'channels', name: 'neq name (null on DMs)', query: (p) => ({ filter: { neq: { name: p.channelName } } }) },
  { entity: 'channels', name: 'not eq name (null on DMs)', query: (p) => ({ filter: { not: { eq: { name: p.channelName } } } }) },
  { entity: 'channels', name: 'gt updated (milliseconds)', query: (p) => ({ filter: { gt: { updated: num(p.channel, 'updated') } } }) },
  { entity: 'channels', name: 'sort name asc (null names last)', query: () => ({ sort: [{ name: 'asc' }] }), anyCount: true },
  { entity: 'channels', name: 'sort name desc (null names last)', query: () => ({ sort: [{ name: 'desc' }] }), anyCount: true },
  { entity: 'channels', name: 'sort id desc', query: () => ({ filter: { eq: { is_archived: false } }, sort: [{ id: 'desc' }] }) },
  { entity: 'channels', name: 'sort num_members desc, then id', query: () => ({ filter: { eq: { is_archived: false } }, sort: [{ num_members: 'desc' }] }) },
  {
    entity: 'channels',
    name: 'fields topic.value and name',
    query: () => ({ filter: { not: { eq: { is_private: false } } } }),
    fields: ['topic.value', 'name', ['purpose', 'value']],
  },
  // channel messages
  { entity: 'channel_messages', name: 'keyword text, 3 words', query: (p) => ({ filter: { keyword: { text: `${p.words[0]} ${p.words[1]} zzqxq` } } }) },
  { entity: 'channel_messages', name: 'keyword text, upper case', query: (p) => ({ filter: { keyword: { text: p.words[2]!.toUpperCase() } } }) },
  { entity: 'channel_messages', name: 'fuzzy text typo', query: (p) => ({ filter: { fuzzy: { text: typo(p.words[0]!) } } }) },
  {
    entity: 'channel_messages',
    name: 'fuzzy text prefix + exact',
    query: (p) => ({ filter: { fuzzy: { text: `${p.words[1]!.slice(0, 4)} ${p.words[3]}` } } }),
  },
  { entity: 'channel_messages', name: 'fuzzy text, long word typo', query: (p) => ({ filter: { fuzzy: { text: `${typo(p.words[1]!)}` } } }) },
  {
    entity: 'channel_messages',
    name: 'or of keyword (score 1/3) and fuzzy typo (score 1/3): ties by id',
    query: (p) => ({ filter: { or: [{ keyword: { text: `${p.words[2]} zzqxq qqzzx` } }, { fuzzy: { text: typo(p.words[0]!) } }] } }),
  },
  {
    entity: 'channel_messages',
    name: 'or of keyword (score 2/3) and fuzzy prefix (score 2/3): ties by id',
    query: (p) => ({ filter: { or: [{ keyword: { text: `${p.words[2]} ${p.words[3]} zzqxq` } }, { fuzzy: { text: p.words[0]!.slice(0, 4) } }] } }),
  },
  {
    entity: 'channel_messages',
    name: 'fuzzy text, 16 one-letter words (equal scores from different sums)',
    query: () => ({ filter: { fuzzy: { text: 'a b c d e f g h i j k l m n o p' } } }),
  },
  { entity: 'channel_messages', name: 'eq reply_users[]', query: (p) => ({ filter: { eq: { 'reply_users[]': p.replyUser } } }) },
  { entity: 'channel_messages', name: 'contains reply_users', query: (p) => ({ filter: { contains: { reply_users: p.replyUser } } }) },
  { entity: 'channel_messages', name: 'neq reply_users[] (null on most)', query: (p) => ({ filter: { neq: { 'reply_users[]': p.replyUser } } }) },
  { entity: 'channel_messages', name: 'eq reactions[].name', query: (p) => ({ filter: { eq: { 'reactions[].name': p.reaction.name } } }) },
  {
    entity: 'channel_messages',
    name: 'eq reactions[].users[] (nested arrays)',
    query: (p) => ({ filter: { eq: { 'reactions[].users[]': p.reaction.users[0]! } } }),
  },
  { entity: 'channel_messages', name: 'gte reactions[].count', query: () => ({ filter: { gte: { 'reactions[].count': 3 } } }) },
  { entity: 'channel_messages', name: 'any reactions: eq name', query: (p) => ({ filter: { any: { reactions: { eq: { name: p.reaction.name } } } } }) },
  {
    entity: 'channel_messages',
    name: 'any reactions: name and count in the same element',
    query: (p) => ({ filter: { any: { reactions: { and: [{ eq: { name: p.reaction.name } }, { gte: { count: 2 } }] } } } }),
  },
  {
    entity: 'channel_messages',
    name: 'any reactions: contains users',
    query: (p) => ({ filter: { any: { reactions: { contains: { users: p.reaction.users[0]! } } } } }),
  },
  {
    entity: 'channel_messages',
    name: 'any reactions: in name',
    query: (p) => ({ filter: { any: { reactions: { in: { name: [p.reaction.name, 'fire', 'no_such_emoji'] } } } } }),
  },
  { entity: 'channel_messages', name: 'any reactions: like name', query: () => ({ filter: { any: { reactions: { like: { name: '%e%' } } } } }) },
  {
    entity: 'channel_messages',
    name: 'any reactions: neq name (reactions null on most)',
    query: (p) => ({ filter: { any: { reactions: { neq: { name: p.reaction.name } } } } }),
  },
  {
    entity: 'channel_messages',
    name: 'any reactions: not eq name',
    query: (p) => ({ filter: { any: { reactions: { not: { eq: { name: p.reaction.name } } } } } }),
  },
  { entity: 'channel_messages', name: 'not any reactions', query: (p) => ({ filter: { not: { any: { reactions: { eq: { name: p.reaction.name } } } } } }) },
  { entity: 'channel_messages', name: 'eq user, gt ts', query: (p) => ({ filter: { eq: { user: p.messageUser }, gt: { ts: '0' } } }) },
  { entity: 'channel_messages', name: 'gt ts (string)', query: (p) => ({ filter: { gt: { ts: p.messageTs } } }) },
  { entity: 'channel_messages', name: 'eq subtype channel_join', query: () => ({ filter: { eq: { subtype: 'channel_join' } } }) },
  {
    entity: 'channel_messages',
    name: 'like text with two runs',
    query: (p) => ({ filter: { like: { text: p.likeRuns } } }),
  },
  { entity: 'channel_messages', name: 'like text substring', query: (p) => ({ filter: { like: { text: p.words[1]!.slice(1, 6).toUpperCase() } } }) },
  { entity: 'channel_messages', name: 'sort reply_count desc (nulls last)', query: () => ({ sort: [{ reply_count: 'desc' }] }), anyCount: true },
  { entity: 'channel_messages', name: 'sort reply_count asc, ts desc', query: () => ({ sort: [{ reply_count: 'asc' }, { ts: 'desc' }] }), anyCount: true },
  {
    entity: 'channel_messages',
    name: 'keyword or reaction, sorted by channel then score',
    query: (p) => ({
      filter: { or: [{ keyword: { text: `${p.words[0]} ${p.words[2]}` } }, { eq: { 'reactions[].name': p.reaction.name } }] },
      sort: [{ channel_id: 'asc' }],
    }),
  },
  {
    entity: 'channel_messages',
    name: 'fields id, text and reactions',
    query: (p) => ({ filter: { contains: { reply_users: p.replyUser } } }),
    fields: ['id', 'text', 'reactions', ['reply_users']],
  },
];

/** The first case of each entity with a text score, plus plain ones: paged with limit 7. */
const PAGED = [
  'users: sort tz_offset asc (nulls last)',
  'users: keyword real_name, 3 words (shares 1/3, 2/3)',
  'users: fields as lists of keys (email absent in some profiles)',
  'channels: sort name desc (null names last)',
  'channel_messages: fuzzy text prefix + exact',
  'channel_messages: sort reply_count asc, ts desc',
];

const caseName = (c: Case) => `${c.entity}: ${c.name}`;

function caseNamed(name: string): Case {
  const found = CASES.find((c) => caseName(c) === name);
  if (!found) throw new Error(`no case ${name}`);
  return found;
}

// ---------------------------------------------------------------------------------------------

function paramsOf(query: ReferenceQuery, extra: { limit?: number; cursor?: string; fields?: FieldsParam } = {}): Record<string, unknown> {
  return { query, ...extra };
}

/** The issues of the 422 planSearch throws. */
function issuesOf(entity: EntityName, params: Record<string, unknown>): ValidationIssue[] {
  try {
    planSearch(data[entity].catalog, params);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    return (error as ValidationError).issues;
  }
  throw new Error(`expected a 422 for ${JSON.stringify(params)}`);
}

/** Store hits equal reference hits: ids in order, scores to 1e-6, data. */
function expectSameHits(actual: SearchHit[], expected: ReferenceHit[]) {
  // One line per hit, so a difference shows both the ids and the scores; a score within 1e-6 counts as equal.
  const close = (hit: SearchHit | undefined, reference: ReferenceHit) => hit?.id === reference.id && Math.abs(hit.score - reference.score) <= 1e-6;
  expect(actual.map((hit) => `${hit.id} ${hit.score}`)).toEqual(
    expected.map((reference, i) => `${reference.id} ${close(actual[i], reference) ? actual[i]!.score : reference.score}`),
  );
  expect(actual.map((hit) => hit.data)).toEqual(expected.map((hit) => hit.data));
}

/** Whether a document has no value at a path (an array path: no elements). */
function lacks(document: Document, field: string): boolean {
  const value = at(document, field.includes('[]') ? field.slice(0, field.indexOf('[]')) : field);
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

describe.each(BACKENDS)('context store search on %s', (backend) => {
  let database: TestDatabase;
  let store: ContextStore;
  const connectorId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = await openTestContextStore(database);
    for (const entity of ENTITIES) {
      const { catalog, records, documents } = data[entity];
      await store.prepare(catalog);
      const written = await store.write(connectorId, catalog, records);
      expect(written).toHaveLength(documents.length);
      await store.setEntityState(connectorId, entity, 'ready', new Date());
    }
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  async function search(entity: EntityName, params: Record<string, unknown>) {
    const { catalog } = data[entity];
    return store.search(connectorId, catalog, planSearch(catalog, params));
  }

  it('has the data: enough records of each entity, ids unique', () => {
    expect(data.users.documents.length).toBeGreaterThanOrEqual(300);
    expect(data.channels.documents.length).toBeGreaterThanOrEqual(40);
    expect(data.channel_messages.documents.length).toBeGreaterThanOrEqual(100);
    for (const entity of ENTITIES) {
      const ids = data[entity].documents.map((document) => document.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map(caseName)).size).toBe(CASES.length);
  });

  it('answers 409 context_store_not_ready until the entity is ready', async () => {
    const other = randomUUID();
    const { catalog, records } = data.users;
    await store.write(other, catalog, records.slice(0, 20));
    const plan = planSearch(catalog, paramsOf({ filter: { eq: { is_bot: false } } }));
    const before = (await store.search(other, catalog, plan).then(
      () => undefined,
      (error: unknown) => error,
    )) as PlugboardError | undefined;
    expect(before).toBeInstanceOf(NotReadyError);
    expect(before!.status).toBe(409);
    expect(before!.error_code).toBe('context_store_not_ready');
    // A status without a completed read is not ready either.
    await store.setEntityState(other, 'users', 'loading');
    await expect(store.search(other, catalog, plan)).rejects.toMatchObject({ status: 409, error_code: 'context_store_not_ready' });
    await store.setEntityState(other, 'users', 'ready', new Date());
    const page = await store.search(other, catalog, plan);
    expect(page.hits.length).toBeGreaterThan(0);
    expect(page.hits.length).toBeLessThanOrEqual(20);
    // Another entity of the same connector is still not ready.
    await expect(store.search(other, data.channels.catalog, planSearch(data.channels.catalog, paramsOf({})))).rejects.toMatchObject({ status: 409 });
    await store.deleteConnector(other);
    await expect(store.search(other, catalog, plan)).rejects.toMatchObject({ status: 409, error_code: 'context_store_not_ready' });
  });

  it.each(CASES.map((c) => [caseName(c), c] as const))('matches the reference: %s', async (_name, c) => {
    const { documents } = data[c.entity];
    const query = c.query(P);
    const expected = referenceSearch(documents, query, c.fields);
    if (!c.anyCount) {
      expect(expected.length, 'the filter should match some records').toBeGreaterThan(0);
      expect(expected.length, 'the filter should not match every record').toBeLessThan(documents.length);
    }
    const page = await search(c.entity, paramsOf(query, c.fields ? { fields: c.fields } : {}));
    expect(page.next_cursor).toBeNull();
    expectSameHits(page.hits, expected);
  });

  it('the table exercises text scores other than 1 and every operator', () => {
    const scores = new Set<number>();
    const operators = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          operators.add(key);
          walk(inner);
        }
      }
    };
    for (const c of CASES) {
      const query = c.query(P);
      walk(query.filter);
      for (const hit of referenceSearch(data[c.entity].documents, query)) scores.add(hit.score);
    }
    for (const op of ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'keyword', 'fuzzy', 'contains', 'any', 'not', 'and', 'or'])
      expect(operators).toContain(op);
    for (const score of [1, 0.5, 0.333333, 0.666667]) expect(scores).toContain(score);
  });

  it('neq is exactly not eq, and eq plus neq partition the records (records lacking the field included)', async () => {
    const checks: [EntityName, string, unknown][] = [
      ['users', 'is_admin', false],
      ['users', 'profile.email', text(P.user, 'profile.email')],
      ['users', 'tz_offset', num(P.user, 'tz_offset')],
      ['channels', 'name', P.channelName],
      ['channels', 'topic.value', text(P.channel, 'topic.value')],
      ['channel_messages', 'reactions[].name', P.reaction.name],
      ['channel_messages', 'reply_users[]', P.replyUser],
    ];
    for (const [entity, field, value] of checks) {
      const ids = async (filter: unknown) => (await search(entity, paramsOf({ filter }))).hits.map((hit) => hit.id);
      const eq = await ids({ eq: { [field]: value } });
      const neq = await ids({ neq: { [field]: value } });
      const notEq = await ids({ not: { eq: { [field]: value } } });
      expect(neq, `${entity} ${field}`).toEqual(notEq);
      const all = data[entity].documents.map((document) => String(document.id));
      expect([...eq, ...neq].sort()).toEqual([...all].sort());
      expect(eq.length).toBeGreaterThan(0);
      // Some record without a value there (absent or null) is among the neq hits.
      const lacking = data[entity].documents.filter((document) => lacks(document, field));
      expect(lacking.length, `${entity} ${field}: some records lack the field`).toBeGreaterThan(0);
      for (const document of lacking) expect(neq).toContain(String(document.id));
    }
  });

  it.each(PAGED)('pages with limit 7 through every hit exactly once: %s', async (name) => {
    const c = caseNamed(name);
    const query = c.query(P);
    const fields = c.fields ? { fields: c.fields } : {};
    const unpaged = await search(c.entity, paramsOf(query, fields));
    const hits: SearchHit[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search(c.entity, paramsOf(query, { limit: 7, ...fields, ...(cursor ? { cursor } : {}) }));
      pages += 1;
      if (page.next_cursor !== null) expect(page.hits).toHaveLength(7);
      else expect(page.hits.length).toBeLessThanOrEqual(7);
      hits.push(...page.hits);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && pages < 500);
    expect(cursor).toBeUndefined();
    expect(pages).toBe(Math.max(1, Math.ceil(unpaged.hits.length / 7)));
    expect(hits).toEqual(unpaged.hits);
    expect(new Set(hits.map((hit) => hit.id)).size).toBe(hits.length);
    expectSameHits(hits, referenceSearch(data[c.entity].documents, query, c.fields));
  });

  it('limit defaults to 1000; a page of exactly the remaining hits has no next cursor', async () => {
    const all = await search('users', paramsOf({}));
    expect(all.hits).toHaveLength(data.users.documents.length);
    expect(all.next_cursor).toBeNull();
    expectSameHits(all.hits, referenceSearch(data.users.documents, {}));
    const exact = await search('users', paramsOf({}, { limit: data.users.documents.length }));
    expect(exact.next_cursor).toBeNull();
    const short = await search('users', paramsOf({}, { limit: data.users.documents.length - 1 }));
    expect(short.next_cursor).not.toBeNull();
    const last = await search('users', paramsOf({}, { limit: 5, cursor: short.next_cursor! }));
    expect(last.hits.map((hit) => hit.id)).toEqual([all.hits.at(-1)!.id]);
    expect(last.next_cursor).toBeNull();
  });

  it('rejects a cursor of another query with a 422 at body.params.cursor', async () => {
    const query = { filter: { eq: { is_bot: false } }, sort: [{ name: 'asc' as const }] };
    const first = await search('users', paramsOf(query, { limit: 7 }));
    const cursor = first.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    const cursorLoc = ['body', 'params', 'cursor'];
    for (const other of [
      { filter: { eq: { is_bot: true } }, sort: query.sort },
      { filter: query.filter, sort: [{ name: 'desc' as const }] },
      { filter: query.filter },
    ]) {
      const issues = issuesOf('users', paramsOf(other, { limit: 7, cursor }));
      expect(issues.map((issue) => issue.loc)).toEqual([cursorLoc]);
      expect(issues[0]!.type).toBe('value_error.cursor_mismatch');
    }
    // Same filter and sort on another entity's catalog is another query too.
    expect(issuesOf('channels', paramsOf({ filter: { eq: { is_private: false } } }, { cursor })).map((issue) => issue.loc)).toEqual([cursorLoc]);
    expect(issuesOf('users', paramsOf(query, { cursor: 'not-a-cursor' }))).toEqual([expect.objectContaining({ loc: cursorLoc, type: 'value_error.cursor' })]);
    // The same query (another limit or projection) follows it.
    const second = await search('users', paramsOf(query, { limit: 7, cursor, fields: ['id'] }));
    expect(second.hits.map((hit) => hit.id)).toEqual(
      referenceSearch(data.users.documents, query)
        .slice(7, 14)
        .map((hit) => hit.id),
    );
  });

  it('an empty filter, and [] or or []: a 422 or the vacuous answer (all, all, none), never a database error', async () => {
    const filters = [{}, { and: [] }, { or: [] }, { not: { or: [] } }];
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    const ids: Record<string, [string[], string[]]> = {};
    for (const filter of filters) {
      const key = JSON.stringify(filter);
      const reference = referenceSearch(data.users.documents, { filter }).map((hit) => hit.id);
      try {
        const hits = (await search('users', paramsOf({ filter }))).hits.map((hit) => hit.id);
        outcomes[key] = `${hits.length} hits`;
        ids[key] = [hits, reference];
      } catch (error) {
        outcomes[key] = error instanceof ValidationError ? 'a 422' : `${(error as Error).constructor.name}: ${(error as Error).message}`;
      }
      expected[key] = outcomes[key] === 'a 422' ? 'a 422' : `${reference.length} hits`;
    }
    expect(outcomes).toEqual(expected);
    for (const [key, [hits, reference]] of Object.entries(ids)) expect(hits, key).toEqual(reference);
  });

  it('writing the same records again changes no search answer', async () => {
    const queries: [EntityName, ReferenceQuery][] = [
      ['users', { filter: { fuzzy: { real_name: P.realNameTypo } } }],
      ['users', { filter: { like: { real_name: P.lastName } } }],
      ['channel_messages', { filter: { keyword: { text: `${P.words[0]} ${P.words[1]}` } } }],
    ];
    for (const entity of ENTITIES) await store.write(connectorId, data[entity].catalog, data[entity].records);
    for (const [entity, query] of queries) {
      const expected = referenceSearch(data[entity].documents, query);
      expect(expected.length).toBeGreaterThan(0);
      expectSameHits((await search(entity, paramsOf(query))).hits, expected);
    }
  });

  it('rejects invalid queries with a 422 whose loc points at the problem', () => {
    const cases: [EntityName, Record<string, unknown>, (string | number)[], string][] = [
      ['users', { filter: { regex: { name: 'x' } } }, [...FILTER_LOC, 'regex'], 'value_error.unknown_operator'],
      ['users', { filter: { eq: { no_such_field: 1 } } }, [...FILTER_LOC, 'eq', 'no_such_field'], 'value_error.unknown_field'],
      ['users', { filter: { eq: { 'profile.no_such_field': 'x' } } }, [...FILTER_LOC, 'eq', 'profile.no_such_field'], 'value_error.unknown_field'],
      ['users', { filter: { eq: { tz_offset: '3600' } } }, [...FILTER_LOC, 'eq', 'tz_offset'], 'type_error.number'],
      ['users', { filter: { eq: { is_bot: 'true' } } }, [...FILTER_LOC, 'eq', 'is_bot'], 'type_error.bool'],
      ['users', { filter: { gt: { name: 5 } } }, [...FILTER_LOC, 'gt', 'name'], 'type_error.str'],
      ['users', { filter: { in: { name: 'hugo' } } }, [...FILTER_LOC, 'in', 'name'], 'type_error.list'],
      ['users', { filter: { in: { tz_offset: [0, 'x'] } } }, [...FILTER_LOC, 'in', 'tz_offset', 1], 'type_error.number'],
      ['users', { filter: { keyword: { real_name: 42 } } }, [...FILTER_LOC, 'keyword', 'real_name'], 'type_error.str'],
      ['users', { filter: { fuzzy: { real_name: ['hugo'] } } }, [...FILTER_LOC, 'fuzzy', 'real_name'], 'type_error.str'],
      ['users', { filter: { keyword: { tz: 'berlin' } } }, [...FILTER_LOC, 'keyword', 'tz'], 'value_error.not_text_field'],
      ['users', { filter: { fuzzy: { 'profile.email': 'hugo' } } }, [...FILTER_LOC, 'fuzzy', 'profile.email'], 'value_error.not_text_field'],
      ['users', { filter: { like: { tz_offset: '3%' } } }, [...FILTER_LOC, 'like', 'tz_offset'], 'value_error.field_kind'],
      ['users', { sort: [{ updated: 'desc' }, { no_such_field: 'asc' }] }, [...QUERY_LOC, 'sort', 1, 'no_such_field'], 'value_error.unknown_field'],
      [
        'users',
        { filter: { and: [{ eq: { is_bot: true } }, { or: [{ eq: { nope: 1 } }] }] } },
        [...FILTER_LOC, 'and', 1, 'or', 0, 'eq', 'nope'],
        'value_error.unknown_field',
      ],
      ['users', { filter: { not: { eq: { nope: 1 } } } }, [...FILTER_LOC, 'not', 'eq', 'nope'], 'value_error.unknown_field'],
      [
        'channel_messages',
        { filter: { any: { reactions: { eq: { nme: 'x' } } } } },
        [...FILTER_LOC, 'any', 'reactions', 'eq', 'nme'],
        'value_error.unknown_field',
      ],
      ['channel_messages', { filter: { contains: { reactions: 'x' } } }, [...FILTER_LOC, 'contains', 'reactions'], 'value_error.field_kind'],
      ['channel_messages', { filter: { any: { reply_users: { eq: { name: 'x' } } } } }, [...FILTER_LOC, 'any', 'reply_users'], 'value_error.field_kind'],
      ['channels', { filter: { contains: { previous_names: 3 } } }, [...FILTER_LOC, 'contains', 'previous_names'], 'type_error.str'],
      ['channels', { filter: { eq: { topic: 'x' } } }, [...FILTER_LOC, 'eq', 'topic'], 'value_error.field_kind'],
      ['channels', { filter: { or: { eq: { name: 'x' } } } }, [...FILTER_LOC, 'or'], 'type_error.list'],
    ];
    for (const [entity, query, loc, type] of cases) {
      const issues = issuesOf(entity, paramsOf(query));
      expect(issues, JSON.stringify(query)).toEqual([expect.objectContaining({ loc, type })]);
    }
    // Several problems: every one is reported.
    const several = issuesOf('users', paramsOf({ filter: { eq: { nope: 1 }, in: { name: 'x' } }, sort: [{ nada: 'asc' }] }));
    expect(several.map((issue) => issue.loc)).toEqual([
      [...FILTER_LOC, 'eq', 'nope'],
      [...FILTER_LOC, 'in', 'name'],
      [...QUERY_LOC, 'sort', 0, 'nada'],
    ]);
    // Unknown projection paths.
    expect(issuesOf('users', paramsOf({}, { fields: ['id', 'profile.nope'] })).map((issue) => issue.loc)).toEqual([['body', 'params', 'fields', 1]]);
  });
});
