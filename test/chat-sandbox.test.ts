import { describe, expect, it, onTestFinished } from 'vitest';
import { type SlackSandbox, startSandbox, type SandboxChannel, type SandboxMessage, type SlackSandboxOptions } from '../connectors/chat/sandbox/index.ts';
import { slackConformance, validateSlackRequest, validateSlackResponse } from './helpers/slack-openapi.ts';

const TOKEN = 'xoxb-sandbox-test-0001';
const WRITE_METHODS = new Set([
  'conversations.create',
  'conversations.join',
  'conversations.rename',
  'conversations.setTopic',
  'conversations.setPurpose',
  'chat.postMessage',
  'chat.update',
  'reactions.add',
]);

/** Each test gets its own sandbox on an ephemeral port, closed when the test ends. */
async function start(options: Partial<SlackSandboxOptions> = {}): Promise<SlackSandbox> {
  const sb = await startSandbox({ token: TOKEN, ...options });
  onTestFinished(() => sb.close());
  return sb;
}

type Form = 'query' | 'form' | 'json';

interface CallOptions {
  form?: Form;
  httpMethod?: 'GET' | 'POST';
  /** null sends no Authorization header. */
  token?: string | null;
  authorization?: string;
  rawBody?: string | Uint8Array;
  /** With rawBody: the Content-Type to send (none when undefined). */
  contentType?: string;
  /** What validateSlackRequest must report for this request; [] (conforming) unless deliberately off-spec. */
  requestProblems?: string[];
}

interface CallResult {
  status: number;
  headers: Headers;
  // Parsing boundary: response bodies are arbitrary JSON, checked against the spec below.
  body: any;
  text: string;
}

/**
 * One HTTP call. Every JSON answer is checked against the Slack spec (success or error schema), and
 * the request as the sandbox logged it against the method's declared parameters.
 */
async function call(sb: SlackSandbox, method: string, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallResult> {
  const form = opts.form ?? (WRITE_METHODS.has(method) ? 'json' : 'query');
  const httpMethod = opts.httpMethod ?? (form === 'query' ? 'GET' : 'POST');
  const headers: Record<string, string> = {};
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  else if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`;
  const stringArgs = Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)]),
  );
  let url = `${sb.url}/${method}`;
  let body: string | Uint8Array | undefined;
  if (form === 'query') {
    const qs = new URLSearchParams(stringArgs).toString();
    if (qs) url += `?${qs}`;
  } else if (form === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(stringArgs).toString();
  } else {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(args);
  }
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    if (opts.contentType === undefined) delete headers['content-type'];
    else headers['content-type'] = opts.contentType;
  }
  const before = sb.requests.length;
  const res = await fetch(url, { method: httpMethod, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json !== undefined && res.status !== 404) {
    expect(validateSlackResponse(method, json), `${method} response: ${text.slice(0, 300)}`).toEqual([]);
  }
  expect(sb.requests.length).toBe(before + 1);
  const entry = sb.requests.at(-1)!;
  // Without the spec nothing is checked, so a deliberately off-spec request expects no finding either.
  const expected = slackConformance ? (opts.requestProblems ?? []) : [];
  expect(validateSlackRequest(entry), `${method} request ${JSON.stringify(entry)}`).toEqual(expected);
  return { status: res.status, headers: res.headers, body: json, text };
}

async function ok(sb: SlackSandbox, method: string, args: Record<string, unknown> = {}, opts: CallOptions = {}) {
  const r = await call(sb, method, args, opts);
  expect(r.status).toBe(200);
  expect(r.body, r.text.slice(0, 300)).toMatchObject({ ok: true });
  return r.body;
}

async function fails(sb: SlackSandbox, method: string, args: Record<string, unknown>, error: string, opts: CallOptions = {}) {
  const r = await call(sb, method, args, opts);
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ ok: false, error });
}

// ------------------------------------------------------------------ fixtures found in the seeded data

function channelWhere(sb: SlackSandbox, predicate: (c: SandboxChannel, member: boolean) => boolean): SandboxChannel {
  const found = sb.data.channels.find((c) => predicate(c, c.members.has(sb.botUserId)));
  if (!found) throw new Error('no seeded channel matches');
  return found;
}

const memberChannel = (sb: SlackSandbox) => channelWhere(sb, (c, m) => c.kind === 'public_channel' && m && !c.is_archived && !c.is_general);
const outsiderChannel = (sb: SlackSandbox) => channelWhere(sb, (c, m) => c.kind === 'public_channel' && !m && !c.is_archived);
const archivedChannel = (sb: SlackSandbox) => channelWhere(sb, (c, m) => c.is_archived && m);
const hiddenPrivate = (sb: SlackSandbox) => channelWhere(sb, (c, m) => c.kind === 'private_channel' && !m);

function messagesOf(sb: SlackSandbox, channel: SandboxChannel): readonly SandboxMessage[] {
  return sb.data.messages.get(channel.id)!;
}

function threadParent(sb: SlackSandbox, channel: SandboxChannel, minReplies = 3): SandboxMessage {
  const parent = messagesOf(sb, channel).find((m) => (m.reply_count ?? 0) >= minReplies);
  if (!parent) throw new Error('no seeded thread');
  return parent;
}

function othersMessage(sb: SlackSandbox, channel: SandboxChannel): SandboxMessage {
  return messagesOf(sb, channel).find((m) => m.user !== sb.botUserId && m.subtype === undefined && !m.thread_ts)!;
}

/** Walks a cursor-paginated list to the end, returning every page. */
async function walk(sb: SlackSandbox, method: string, args: Record<string, unknown>, key: string) {
  const pages: unknown[][] = [];
  let cursor = '';
  for (let i = 0; i < 10_000; i++) {
    const body = await ok(sb, method, cursor ? { ...args, cursor } : args);
    pages.push(body[key]);
    cursor = body.response_metadata?.next_cursor ?? '';
    if (!cursor) return pages;
  }
  throw new Error('pagination did not end');
}

// ------------------------------------------------------------------ tests

describe('Slack sandbox: HTTP surface and auth', () => {
  it('answers not_authed / invalid_auth with HTTP 200, and ignores a token argument', async () => {
    const sb = await start();
    await fails(sb, 'users.list', {}, 'not_authed', { token: null });
    await fails(sb, 'users.list', {}, 'not_authed', { authorization: '' });
    await fails(sb, 'users.list', {}, 'not_authed', { authorization: 'Bearer ' });
    await fails(sb, 'users.list', {}, 'invalid_auth', { token: 'xoxb-wrong' });
    await fails(sb, 'users.list', {}, 'invalid_auth', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` });
    // Only the header authenticates; `token` is not even a declared parameter in the notoken spec.
    await fails(sb, 'users.list', { token: TOKEN }, 'not_authed', {
      token: null,
      requestProblems: ['argument "token" is not a declared query parameter of users.list'],
    });
    await fails(sb, 'chat.postMessage', { token: TOKEN, channel: 'C1', text: 'x' }, 'not_authed', {
      token: null,
      form: 'form',
      requestProblems: ['argument "token" is not a declared formData parameter of chat.postMessage'],
    });
  });

  it('auth.test: the workspace and bot user the token belongs to, by query or form; not_authed / invalid_auth otherwise', async () => {
    const sb = await start();
    const { team } = sb.data;
    const bot = sb.data.users.find((user) => user.id === sb.botUserId)!;
    const identity = await ok(sb, 'auth.test');
    expect(identity).toEqual({
      ok: true,
      url: `https://${team.domain}.slack.com/`,
      team: team.name,
      user: bot.name,
      team_id: team.id,
      user_id: bot.id,
      bot_id: bot.profile.bot_id,
      is_enterprise_install: false,
    });
    expect(await ok(sb, 'auth.test', {}, { form: 'form' })).toEqual(identity);
    await fails(sb, 'auth.test', {}, 'invalid_auth', { token: 'xoxb-wrong' });
    await fails(sb, 'auth.test', {}, 'not_authed', { token: null });
  });

  it('unknown methods are HTTP 404 unknown_method; health needs no token', async () => {
    const sb = await start();
    const r = await call(sb, 'users.delete', {}, { requestProblems: ['users.delete is not a method of the Slack spec'] });
    expect([r.status, r.body]).toEqual([404, { ok: false, error: 'unknown_method' }]);
    expect(sb.requests.at(-1)!.method).toBe('users.delete');
    const health = await fetch(sb.url.replace(/\/api$/, '/_sandbox/health'));
    expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  });

  it('keeps no request log when recordRequests is false (the CLI sandbox, which may run for days)', async () => {
    const sb = await start({ recordRequests: false });
    const list = await fetch(`${sb.url}/users.list?limit=5`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await list.json()) as { members: unknown[] }).members).toHaveLength(5);
    const refused = await fetch(`${sb.url}/users.list`, { headers: { authorization: 'Bearer xoxb-wrong' } });
    expect(await refused.json()).toEqual({ ok: false, error: 'invalid_auth' });
    expect(sb.requests).toEqual([]);
  });

  it('accepts query strings (GET and POST), form bodies and JSON bodies, and logs each request', async () => {
    const sb = await start();
    const user = sb.data.users.find((u) => !u.deleted && !u.is_bot && u.id !== 'USLACKBOT')!;
    expect((await ok(sb, 'users.info', { user: user.id })).user.id).toBe(user.id);
    expect((await ok(sb, 'users.info', { user: user.id }, { form: 'form' })).user.id).toBe(user.id);
    expect((await ok(sb, 'users.info', { user: user.id, include_locale: '1' }, { form: 'query', httpMethod: 'POST' })).user.locale).toBe('en-US');
    expect(sb.requests.slice(-3)).toEqual([
      { method: 'users.info', httpMethod: 'GET', contentType: null, args: { user: user.id }, argForm: 'query' },
      { method: 'users.info', httpMethod: 'POST', contentType: 'application/x-www-form-urlencoded', args: { user: user.id }, argForm: 'form' },
      { method: 'users.info', httpMethod: 'POST', contentType: null, args: { user: user.id, include_locale: '1' }, argForm: 'query' },
    ]);

    const channel = memberChannel(sb);
    const viaForm = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'form post', unfurl_links: 'false', mrkdwn: '1' }, { form: 'form' });
    const viaJson = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'json post', unfurl_links: false, mrkdwn: true });
    expect([viaForm.message.text, viaJson.message.text]).toEqual(['form post', 'json post']);
    expect(sb.requests.at(-1)).toMatchObject({ argForm: 'json', contentType: 'application/json; charset=utf-8', args: { unfurl_links: false } });
    // Write methods take query-string arguments too (the spec only declares POST for them).
    const viaQuery = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'query post' }, { form: 'query', httpMethod: 'POST' });
    expect(viaQuery.message.text).toBe('query post');
  });

  it('ignores JSON bodies for read methods, like Slack', async () => {
    const sb = await start();
    const user = sb.data.users[3]!;
    const ignored = ['users.info does not accept JSON bodies (Slack ignores them for this method)'];
    await fails(sb, 'users.info', { user: user.id }, 'user_not_found', { form: 'json', requestProblems: ignored });
    expect(sb.requests.at(-1)).toMatchObject({ argForm: 'json', args: { user: user.id } });
    const r = await call(sb, 'users.info', {}, { form: 'json', requestProblems: ignored });
    expect(r.body.ok).toBe(false);
    // Query arguments still count when the body is JSON.
    const viaQuery = await fetch(`${sb.url}/users.info?user=${user.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'UIGNORED' }),
    });
    expect(((await viaQuery.json()) as { user: { id: string } }).user.id).toBe(user.id);
  });

  it('rejects malformed bodies: invalid_json, json_not_object, invalid_post_type, missing_post_type', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    await fails(sb, 'conversations.setTopic', {}, 'invalid_json', { rawBody: '{"channel": ', contentType: 'application/json' });
    await fails(sb, 'conversations.setTopic', {}, 'json_not_object', { rawBody: '["a"]', contentType: 'application/json' });
    // The sandbox could not read these arguments, so its log has no channel either.
    const requestProblems = ['required argument "channel" is missing'];
    await fails(sb, 'chat.postMessage', {}, 'invalid_json', { rawBody: 'nope', contentType: 'application/json', requestProblems });
    await fails(sb, 'chat.postMessage', {}, 'invalid_post_type', { rawBody: `channel=${channel.id}&text=hi`, contentType: 'text/plain', requestProblems });
    await fails(sb, 'chat.postMessage', {}, 'missing_post_type', { rawBody: new TextEncoder().encode(`channel=${channel.id}&text=hi`), requestProblems });
    const big = await fetch(`${sb.url}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: channel.id, text: 'x'.repeat(1024 * 1024) }),
    });
    expect(big.status).toBe(413);
  });
});

describe('Slack sandbox: users', () => {
  it('users.list returns every member with the full user shape, and cursor pagination has no gaps or duplicates', async () => {
    const sb = await start();
    const all = await ok(sb, 'users.list');
    expect(all.members).toHaveLength(50);
    expect(all.response_metadata).toEqual({ next_cursor: '' });
    expect(Number.isInteger(all.cache_ts)).toBe(true);
    const ids = all.members.map((u: { id: string }) => u.id);
    expect(ids).toEqual([...ids].sort());

    const pages = await walk(sb, 'users.list', { limit: 7 }, 'members');
    expect(pages).toHaveLength(Math.ceil(50 / 7));
    const walked = pages.flat().map((u) => (u as { id: string }).id);
    expect(walked).toEqual(ids);

    const bot = all.members.find((u: { id: string }) => u.id === sb.botUserId);
    expect(bot).toMatchObject({ is_bot: true, deleted: false, is_app_user: false, profile: { bot_id: expect.stringMatching(/^B/) } });
    const person = all.members.find((u: { is_bot: boolean; deleted: boolean; id: string }) => !u.is_bot && !u.deleted && u.id !== 'USLACKBOT');
    for (const field of [
      'id',
      'team_id',
      'name',
      'deleted',
      'color',
      'real_name',
      'tz',
      'tz_label',
      'tz_offset',
      'profile',
      'is_admin',
      'is_owner',
      'is_primary_owner',
      'is_restricted',
      'is_ultra_restricted',
      'is_bot',
      'is_app_user',
      'updated',
      'is_email_confirmed',
      'who_can_share_contact_card',
    ]) {
      expect(person).toHaveProperty(field);
    }
    expect(person.id).toMatch(/^U[A-Z0-9]{8,}$/);
    expect(all.members.some((u: { deleted: boolean }) => u.deleted)).toBe(true);
    expect(all.members.filter((u: { is_bot: boolean }) => u.is_bot).length).toBeGreaterThan(1);
    expect(all.members.filter((u: { is_primary_owner?: boolean }) => u.is_primary_owner)).toHaveLength(1);
    expect(all.members.find((u: { id: string }) => u.id === 'USLACKBOT')).toMatchObject({ name: 'slackbot', is_bot: false });
  });

  it('users.list: limit is capped at 1000, include_locale, invalid_cursor', async () => {
    const sb = await start({ users: 20 });
    expect((await ok(sb, 'users.list', { limit: 5000 })).members).toHaveLength(20);
    expect((await ok(sb, 'users.list', { limit: 2, include_locale: true })).members.every((u: { locale?: string }) => u.locale === 'en-US'));
    await fails(sb, 'users.list', { cursor: 'not a cursor!' }, 'invalid_cursor');
    await fails(sb, 'users.list', { cursor: Buffer.from('team:C0123456789').toString('base64') }, 'invalid_cursor');
    await fails(sb, 'users.list', { cursor: Buffer.from('user:').toString('base64') }, 'invalid_cursor');
  });

  it('users.info: a user, user_not_found', async () => {
    const sb = await start();
    const deleted = sb.data.users.find((u) => u.deleted && !u.is_bot)!;
    const info = await ok(sb, 'users.info', { user: deleted.id });
    expect(info.user).toEqual(deleted);
    // Deactivated accounts come without the fields Slack drops for them.
    expect(info.user.tz).toBeUndefined();
    await fails(sb, 'users.info', { user: 'U0NOPE12345' }, 'user_not_found');
    await fails(sb, 'users.info', {}, 'user_not_found');
  });

  it('a 5000-user workspace starts, demands a limit, and paginates completely', async () => {
    const sb = await start({ users: 5000 });
    await fails(sb, 'users.list', {}, 'limit_required');
    const pages = await walk(sb, 'users.list', { limit: 1000 }, 'members');
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 1000, 1000, 1000]);
    const ids = new Set(pages.flat().map((u) => (u as { id: string }).id));
    expect(ids.size).toBe(5000);

    // Pages of 200 follow each other by cursor however large the workspace (sorted array plus id index).
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${sb.url}/users.list?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = (await res.json()) as { members: unknown[]; response_metadata: { next_cursor: string } };
      expect(body.members).toHaveLength(200);
      cursor = body.response_metadata.next_cursor;
    }
  });
});

describe('Slack sandbox: conversations', () => {
  it('conversations.list: types, exclude_archived, visibility, every channel field', async () => {
    const sb = await start();
    const publicOnly = await ok(sb, 'conversations.list', { limit: 1000 });
    expect(publicOnly.response_metadata).toEqual({ next_cursor: '' });
    expect(publicOnly.channels.every((c: { is_private: boolean; is_channel: boolean }) => !c.is_private && c.is_channel)).toBe(true);
    expect(publicOnly.channels.filter((c: { is_general: boolean }) => c.is_general)).toHaveLength(1);
    expect(publicOnly.channels.some((c: { is_archived: boolean }) => c.is_archived)).toBe(true);
    expect(publicOnly.channels.some((c: { is_member: boolean }) => !c.is_member)).toBe(true);
    const general = publicOnly.channels.find((c: { is_general: boolean }) => c.is_general);
    for (const field of [
      'id',
      'name',
      'name_normalized',
      'context_team_id',
      'creator',
      'parent_conversation',
      'is_channel',
      'is_group',
      'is_im',
      'is_mpim',
      'is_private',
      'is_archived',
      'is_general',
      'is_shared',
      'is_org_shared',
      'is_pending_ext_shared',
      'is_ext_shared',
      'is_member',
      'is_thread_only',
      'is_read_only',
      'created',
      'unlinked',
      'updated',
      'num_members',
      'pending_shared',
      'shared_team_ids',
      'pending_connected_team_ids',
      'previous_names',
      'topic',
      'purpose',
    ]) {
      expect(general).toHaveProperty(field);
    }
    expect(general.id).toMatch(/^C[A-Z0-9]{8,}$/);
    expect(general.topic).toEqual({ value: expect.any(String), creator: expect.stringMatching(/^U/), last_set: expect.any(Number) });

    const everything = await ok(sb, 'conversations.list', { types: 'public_channel,private_channel,mpim,im', limit: 1000 });
    const kinds = (c: { is_im: boolean; is_mpim?: boolean; is_private?: boolean }) =>
      c.is_im ? 'im' : c.is_mpim ? 'mpim' : c.is_private ? 'private' : 'public';
    expect(new Set(everything.channels.map(kinds))).toEqual(new Set(['im', 'mpim', 'private', 'public']));
    const listed = new Set(everything.channels.map((c: { id: string }) => c.id));
    // Private channels the bot is not in do not exist for its token.
    expect(listed.has(hiddenPrivate(sb).id)).toBe(false);
    expect(everything.channels.find((c: { is_im: boolean }) => c.is_im)).toMatchObject({ id: expect.stringMatching(/^D/), user: expect.stringMatching(/^U/) });

    const active = await ok(sb, 'conversations.list', { exclude_archived: 'true', limit: 1000 });
    expect(active.channels.length).toBe(publicOnly.channels.length - publicOnly.channels.filter((c: { is_archived: boolean }) => c.is_archived).length);
    const onlyIms = await ok(sb, 'conversations.list', { types: 'im' });
    expect(onlyIms.channels.every((c: { is_im: boolean }) => c.is_im)).toBe(true);
    await fails(sb, 'conversations.list', { types: 'public_channel,dm' }, 'invalid_types');
    await fails(sb, 'conversations.list', { cursor: 'zzz' }, 'invalid_cursor');
  });

  it('conversations.list paginates with a cursor, no gaps or duplicates, default limit 100', async () => {
    const sb = await start({ channels: 130 });
    const first = await ok(sb, 'conversations.list', { types: 'public_channel,private_channel' });
    expect(first.channels).toHaveLength(100);
    expect(Buffer.from(first.response_metadata.next_cursor, 'base64').toString()).toMatch(/^team:C/);
    const everything = await ok(sb, 'conversations.list', { types: 'public_channel,private_channel', limit: 1000 });
    const pages = await walk(sb, 'conversations.list', { types: 'public_channel,private_channel', limit: 9 }, 'channels');
    const ids = pages.flat().map((c) => (c as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(everything.channels.map((c: { id: string }) => c.id));
  });

  it('conversations.info: a channel, num_members on request, channel_not_found', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const info = await ok(sb, 'conversations.info', { channel: channel.id });
    expect(info.channel).toMatchObject({ id: channel.id, name: channel.name, is_member: true });
    expect(info.channel.num_members).toBeUndefined();
    expect((await ok(sb, 'conversations.info', { channel: channel.id, include_num_members: 'true' })).channel.num_members).toBe(channel.members.size);
    await fails(sb, 'conversations.info', { channel: 'C0NOPE1234' }, 'channel_not_found');
    await fails(sb, 'conversations.info', { channel: hiddenPrivate(sb).id }, 'channel_not_found');
    await fails(sb, 'conversations.info', {}, 'channel_not_found');
  });

  it('conversations.create: public and private, name rules, name_taken', async () => {
    const sb = await start();
    const created = await ok(sb, 'conversations.create', { name: 'launch-room_2' });
    expect(created.channel).toMatchObject({
      name: 'launch-room_2',
      name_normalized: 'launch-room_2',
      is_private: false,
      is_member: true,
      creator: sb.botUserId,
      is_archived: false,
      is_general: false,
      previous_names: [],
      topic: { value: '', creator: '', last_set: 0 },
    });
    expect(created.channel.id).toMatch(/^C[A-Z0-9]{8,}$/);
    const secret = await ok(sb, 'conversations.create', { name: 'secret', is_private: true });
    expect(secret.channel.is_private).toBe(true);
    const viaForm = await ok(sb, 'conversations.create', { name: 'formed', is_private: '1' }, { form: 'form' });
    expect(viaForm.channel.is_private).toBe(true);
    expect((await ok(sb, 'conversations.create', { name: 'a'.repeat(80) })).channel.name).toHaveLength(80);

    const listed = await ok(sb, 'conversations.list', { types: 'public_channel,private_channel', limit: 1000 });
    expect(listed.channels.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['launch-room_2', 'secret', 'formed']));
    // A new channel opens with the creator's join message.
    const history = await ok(sb, 'conversations.history', { channel: created.channel.id });
    expect(history.messages).toMatchObject([{ subtype: 'channel_join', user: sb.botUserId }]);

    await fails(sb, 'conversations.create', {}, 'invalid_name_required');
    await fails(sb, 'conversations.create', { name: '' }, 'invalid_name_required');
    await fails(sb, 'conversations.create', { name: 'a'.repeat(81) }, 'invalid_name_maxlength');
    await fails(sb, 'conversations.create', { name: 'Launch' }, 'invalid_name_specials');
    await fails(sb, 'conversations.create', { name: 'two words' }, 'invalid_name_specials');
    await fails(sb, 'conversations.create', { name: 'bad!name' }, 'invalid_name_specials');
    await fails(sb, 'conversations.create', { name: '--_' }, 'invalid_name_punctuation');
    await fails(sb, 'conversations.create', { name: 'general' }, 'name_taken');
    await fails(sb, 'conversations.create', { name: hiddenPrivate(sb).name }, 'name_taken');
  });

  it('conversations.join: the bot joins a public channel, then reads it and is counted as a member', async () => {
    const sb = await start();
    const channel = outsiderChannel(sb);
    const parent = threadParent(sb, channel);
    await fails(sb, 'conversations.history', { channel: channel.id }, 'not_in_channel');
    await fails(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts }, 'not_in_channel');
    const before = (await ok(sb, 'conversations.info', { channel: channel.id, include_num_members: true })).channel;
    expect(before.is_member).toBe(false);

    const joined = await ok(sb, 'conversations.join', { channel: channel.id });
    // A first join carries no warning.
    expect(Object.keys(joined).sort()).toEqual(['channel', 'ok']);
    expect(joined.channel).toMatchObject({ id: channel.id, name: channel.name, is_channel: true, is_private: false, is_member: true });
    expect(channel.members.has(sb.botUserId)).toBe(true);

    const info = await ok(sb, 'conversations.info', { channel: channel.id, include_num_members: true });
    expect(info.channel).toMatchObject({ is_member: true, num_members: before.num_members + 1 });
    const listed = await ok(sb, 'conversations.list', { limit: 1000 });
    expect(listed.channels.find((c: { id: string }) => c.id === channel.id)).toMatchObject({ is_member: true, num_members: before.num_members + 1 });

    // Slack announces the newcomer in the channel; that message is now the newest one.
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 });
    expect(history.messages).toEqual([
      { type: 'message', subtype: 'channel_join', user: sb.botUserId, text: `<@${sb.botUserId}> has joined the channel`, ts: expect.any(String) },
    ]);
    expect(Number(history.messages[0].ts)).toBeGreaterThan(Number(messagesOf(sb, channel).at(-2)!.ts));
    const thread = await ok(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts });
    expect(thread.messages).toHaveLength(parent.reply_count! + 1);
    // Members may post and manage the channel too.
    await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'hello, I am new here' });
  });

  it('conversations.join: already a member is still ok, with the already_in_channel warning and no second join', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const size = channel.members.size;
    const count = messagesOf(sb, channel).length;
    for (const form of ['json', 'form'] as const) {
      const again = await ok(sb, 'conversations.join', { channel: channel.id }, { form });
      expect(again).toEqual({
        ok: true,
        channel: expect.objectContaining({ id: channel.id, is_member: true }),
        warning: 'already_in_channel',
        response_metadata: { warnings: ['already_in_channel'] },
      });
    }
    expect([channel.members.size, messagesOf(sb, channel).length]).toEqual([size, count]);

    // A channel the bot just joined answers the same way on the next call.
    const outsider = outsiderChannel(sb);
    expect((await ok(sb, 'conversations.join', { channel: outsider.id }, { form: 'form' })).warning).toBeUndefined();
    expect((await ok(sb, 'conversations.join', { channel: outsider.id })).warning).toBe('already_in_channel');
    expect(messagesOf(sb, outsider).filter((m) => m.subtype === 'channel_join' && m.user === sb.botUserId)).toHaveLength(1);
  });

  it('conversations.join errors: channel_not_found, method_not_supported_for_channel_type, is_archived, auth', async () => {
    const sb = await start();
    const outsider = outsiderChannel(sb);
    await fails(sb, 'conversations.join', { channel: 'C0NOPE1234' }, 'channel_not_found');
    await fails(sb, 'conversations.join', {}, 'channel_not_found');
    // A private channel the bot is not in does not exist for its token.
    await fails(sb, 'conversations.join', { channel: hiddenPrivate(sb).id }, 'channel_not_found');
    const privateMember = channelWhere(sb, (c, m) => c.kind === 'private_channel' && m);
    for (const kind of ['im', 'mpim'] as const) {
      await fails(sb, 'conversations.join', { channel: channelWhere(sb, (c) => c.kind === kind).id }, 'method_not_supported_for_channel_type');
    }
    await fails(sb, 'conversations.join', { channel: privateMember.id }, 'method_not_supported_for_channel_type', { form: 'form' });
    await fails(sb, 'conversations.join', { channel: archivedChannel(sb).id }, 'is_archived');
    await fails(sb, 'conversations.join', { channel: outsider.id }, 'not_authed', { token: null });
    await fails(sb, 'conversations.join', { channel: outsider.id }, 'invalid_auth', { token: 'xoxb-wrong' });
    // Failed and unauthenticated calls change nothing.
    expect(outsider.members.has(sb.botUserId)).toBe(false);

    // An archived public channel the bot never joined (the 50-channel seed has one) cannot be joined either.
    const big = await start({ channels: 50 });
    const archivedOutsider = channelWhere(big, (c, m) => c.kind === 'public_channel' && c.is_archived && !m);
    await fails(big, 'conversations.join', { channel: archivedOutsider.id }, 'is_archived');
    expect(archivedOutsider.members.has(big.botUserId)).toBe(false);
  });

  it.runIf(slackConformance)('conversations.join answers are checked against the spec, which would catch a wrong shape', () => {
    // Every call above already validates its body; this guards against the check passing vacuously.
    expect(validateSlackResponse('conversations.join', { ok: true })).not.toEqual([]);
    expect(validateSlackResponse('conversations.join', { ok: true, channel: { id: 'C0123' }, warning: 1 })).not.toEqual([]);
    expect(validateSlackResponse('conversations.join', { ok: false, error: 'not_in_channel' })).not.toEqual([]);
    expect(validateSlackResponse('conversations.join', { ok: false, error: 'is_archived' })).toEqual([]);
  });

  it('conversations.rename: previous_names, name rules, errors', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const oldName = channel.name;
    const renamed = await ok(sb, 'conversations.rename', { channel: channel.id, name: 'renamed-channel' });
    expect(renamed.channel).toMatchObject({ id: channel.id, name: 'renamed-channel', name_normalized: 'renamed-channel' });
    expect(renamed.channel.previous_names[0]).toBe(oldName);
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 });
    expect(history.messages[0]).toMatchObject({ subtype: 'channel_name', old_name: oldName, name: 'renamed-channel' });
    // The old name is free again.
    await ok(sb, 'conversations.create', { name: oldName });

    await fails(sb, 'conversations.rename', { channel: 'C0NOPE1234', name: 'x' }, 'channel_not_found');
    await fails(sb, 'conversations.rename', { channel: channel.id, name: 'general' }, 'name_taken');
    await fails(sb, 'conversations.rename', { channel: channel.id, name: 'Bad Name' }, 'invalid_name_specials');
    await fails(sb, 'conversations.rename', { channel: channel.id }, 'invalid_name_required');
    await fails(sb, 'conversations.rename', { channel: channel.id, name: 'x'.repeat(81) }, 'invalid_name_maxlength');
    await fails(sb, 'conversations.rename', { channel: outsiderChannel(sb).id, name: 'mine-now' }, 'not_in_channel');
    const im = channelWhere(sb, (c) => c.kind === 'im');
    await fails(sb, 'conversations.rename', { channel: im.id, name: 'dm' }, 'method_not_supported_for_channel_type');
  });

  it('conversations.setTopic and setPurpose: values, 250-character limit, errors', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const before = Math.floor(Date.now() / 1000);
    const topic = await ok(sb, 'conversations.setTopic', { channel: channel.id, topic: 't'.repeat(250) });
    expect(topic.channel.topic).toEqual({ value: 't'.repeat(250), creator: sb.botUserId, last_set: expect.any(Number) });
    expect(topic.channel.topic.last_set).toBeGreaterThanOrEqual(before);
    const purpose = await ok(sb, 'conversations.setPurpose', { channel: channel.id, purpose: 'Where launches are planned' }, { form: 'form' });
    expect(purpose.channel.purpose).toMatchObject({ value: 'Where launches are planned', creator: sb.botUserId });
    expect((await ok(sb, 'conversations.info', { channel: channel.id })).channel.topic.value).toBe('t'.repeat(250));
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 2 });
    expect(history.messages.map((m: { subtype: string }) => m.subtype)).toEqual(['channel_purpose', 'channel_topic']);

    for (const [method, arg] of [
      ['conversations.setTopic', 'topic'],
      ['conversations.setPurpose', 'purpose'],
    ] as const) {
      await fails(sb, method, { channel: channel.id, [arg]: 'x'.repeat(251) }, 'too_long');
      await fails(sb, method, { channel: 'C0NOPE1234', [arg]: 'x' }, 'channel_not_found');
      await fails(sb, method, { channel: archivedChannel(sb).id, [arg]: 'x' }, 'is_archived');
      await fails(sb, method, { channel: outsiderChannel(sb).id, [arg]: 'x' }, 'not_in_channel');
    }
  });
});

describe('Slack sandbox: history and threads', () => {
  it('conversations.history: newest first, top-level only, has_more and a complete cursor walk', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const all = messagesOf(sb, channel);
    const topLevel = all.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(topLevel).toHaveLength(60);

    const page = await ok(sb, 'conversations.history', { channel: channel.id, limit: 10 });
    expect(page.messages).toHaveLength(10);
    expect(page.has_more).toBe(true);
    expect(page).toMatchObject({ pin_count: 0, channel_actions_ts: null, channel_actions_count: 0 });
    expect(page.messages.map((m: { ts: string }) => m.ts)).toEqual(
      topLevel
        .slice(-10)
        .reverse()
        .map((m) => m.ts),
    );
    expect(Buffer.from(page.response_metadata.next_cursor, 'base64').toString()).toMatch(/^next_ts:\d+$/);
    for (const m of page.messages) expect(m.ts).toMatch(/^\d{10}\.\d{6}$/);

    const pages = await walk(sb, 'conversations.history', { channel: channel.id, limit: 7 }, 'messages');
    const walked = pages.flat().map((m) => (m as { ts: string }).ts);
    expect(walked).toEqual(topLevel.map((m) => m.ts).reverse());

    const whole = await ok(sb, 'conversations.history', { channel: channel.id });
    expect(whole.messages).toHaveLength(60);
    expect(whole.has_more).toBe(false);
    expect(whole.response_metadata).toBeUndefined();
    const parent = whole.messages.find((m: { reply_count?: number }) => (m.reply_count ?? 0) > 0);
    expect(parent).toMatchObject({ thread_ts: parent.ts, reply_users_count: parent.reply_users.length, latest_reply: expect.any(String) });
    expect(whole.messages.some((m: { user: string }) => m.user !== sb.botUserId)).toBe(true);
  });

  it('conversations.history: oldest / latest / inclusive boundaries and errors', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const ts = messagesOf(sb, channel)
      .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
      .map((m) => m.ts);
    const [a, b, c, d] = [ts[10]!, ts[11]!, ts[12]!, ts[13]!];
    const exclusive = await ok(sb, 'conversations.history', { channel: channel.id, oldest: a, latest: d });
    expect(exclusive.messages.map((m: { ts: string }) => m.ts)).toEqual([c, b]);
    const inclusive = await ok(sb, 'conversations.history', { channel: channel.id, oldest: a, latest: d, inclusive: 'true' });
    expect(inclusive.messages.map((m: { ts: string }) => m.ts)).toEqual([d, c, b, a]);
    const inclusiveJson = await ok(sb, 'conversations.history', { channel: channel.id, oldest: a, latest: d, inclusive: '1', limit: 2 }, { form: 'form' });
    expect(inclusiveJson.messages.map((m: { ts: string }) => m.ts)).toEqual([d, c]);
    expect(inclusiveJson.has_more).toBe(true);
    const rest = await ok(sb, 'conversations.history', {
      channel: channel.id,
      oldest: a,
      latest: d,
      inclusive: '1',
      limit: 2,
      cursor: inclusiveJson.response_metadata.next_cursor,
    });
    expect(rest.messages.map((m: { ts: string }) => m.ts)).toEqual([b, a]);
    expect(rest.has_more).toBe(false);

    const onlyOldest = await ok(sb, 'conversations.history', { channel: channel.id, oldest: ts.at(-3)! });
    expect(onlyOldest.messages).toHaveLength(2);
    const onlyLatest = await ok(sb, 'conversations.history', { channel: channel.id, latest: ts[2]! });
    expect(onlyLatest.messages.map((m: { ts: string }) => m.ts)).toEqual([ts[1], ts[0]]);
    // Whole seconds work as bounds too.
    const empty = await ok(sb, 'conversations.history', { channel: channel.id, latest: '1000000000' });
    expect([empty.messages, empty.has_more]).toEqual([[], false]);

    await fails(sb, 'conversations.history', { channel: channel.id, latest: 'yesterday' }, 'invalid_ts_latest', {
      requestProblems: ['argument "latest" must be a number, got "yesterday"'],
    });
    await fails(sb, 'conversations.history', { channel: channel.id, oldest: '12:00' }, 'invalid_ts_oldest', {
      requestProblems: ['argument "oldest" must be a number, got "12:00"'],
    });
    await fails(sb, 'conversations.history', { channel: 'C0NOPE1234' }, 'channel_not_found');
    await fails(sb, 'conversations.history', {}, 'channel_not_found');
    await fails(sb, 'conversations.history', { channel: hiddenPrivate(sb).id }, 'channel_not_found');
    await fails(sb, 'conversations.history', { channel: channel.id, cursor: Buffer.from('user:U0ABCDEFGH').toString('base64') }, 'invalid_cursor');
  });

  it('conversations.replies: parent then replies, paging, bounds and thread_not_found', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const parent = threadParent(sb, channel);
    const replies = messagesOf(sb, channel).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(replies).toHaveLength(parent.reply_count!);

    const thread = await ok(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts });
    expect(thread.has_more).toBe(false);
    expect(thread.messages.map((m: { ts: string }) => m.ts)).toEqual([parent.ts, ...replies.map((r) => r.ts)]);
    expect(thread.messages[0]).toMatchObject({
      ts: parent.ts,
      thread_ts: parent.ts,
      reply_count: replies.length,
      latest_reply: replies.at(-1)!.ts,
      reply_users_count: new Set(replies.map((r) => r.user)).size,
      subscribed: false,
    });
    for (const r of thread.messages.slice(1)) expect(r).toMatchObject({ thread_ts: parent.ts, parent_user_id: parent.user });

    // Limit counts the parent on the first page; continuation pages hold replies only.
    const pages = await walk(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts, limit: 2 }, 'messages');
    expect(pages[0]).toHaveLength(2);
    expect(pages.flat().map((m) => (m as { ts: string }).ts)).toEqual([parent.ts, ...replies.map((r) => r.ts)]);
    const firstPage = await ok(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts, limit: 1 });
    expect([firstPage.messages.length, firstPage.has_more]).toEqual([1, true]);

    // A reply's ts stands for its whole thread.
    const viaReply = await ok(sb, 'conversations.replies', { channel: channel.id, ts: replies[1]!.ts });
    expect(viaReply.messages[0].ts).toBe(parent.ts);
    const bounded = await ok(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts, oldest: replies[0]!.ts });
    expect(bounded.messages.map((m: { ts: string }) => m.ts)).toEqual([parent.ts, ...replies.slice(1).map((r) => r.ts)]);
    const boundedInclusive = await ok(sb, 'conversations.replies', {
      channel: channel.id,
      ts: parent.ts,
      oldest: replies[0]!.ts,
      latest: replies[1]!.ts,
      inclusive: true,
    });
    expect(boundedInclusive.messages.map((m: { ts: string }) => m.ts)).toEqual([parent.ts, replies[0]!.ts, replies[1]!.ts]);

    await fails(sb, 'conversations.replies', { channel: channel.id }, 'thread_not_found');
    await fails(sb, 'conversations.replies', { channel: channel.id, ts: '1000000000.000001' }, 'thread_not_found');
    await fails(sb, 'conversations.replies', { channel: 'C0NOPE1234', ts: parent.ts }, 'channel_not_found');
    await fails(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts, latest: 'soon' }, 'invalid_ts_latest', {
      requestProblems: ['argument "latest" must be a number, got "soon"'],
    });
    await fails(sb, 'conversations.replies', { channel: channel.id, ts: parent.ts, cursor: '%%%' }, 'invalid_cursor');
  });
});

describe('Slack sandbox: posting, editing, reacting', () => {
  it('chat.postMessage: a message newer than everything, threads and broadcasts', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const newest = Math.max(...[...sb.data.messages.values()].flat().map((m) => Number(m.ts)));
    const posted = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'Ship it *today*', unfurl_links: false });
    expect(Object.keys(posted).sort()).toEqual(['channel', 'message', 'ok', 'ts']);
    expect(posted.channel).toBe(channel.id);
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(posted.ts)).toBeGreaterThan(newest);
    expect(posted.message).toMatchObject({
      type: 'message',
      text: 'Ship it *today*',
      user: sb.botUserId,
      ts: posted.ts,
      bot_id: expect.stringMatching(/^B/),
      bot_profile: { id: expect.stringMatching(/^B/), app_id: expect.stringMatching(/^A/) },
    });
    expect((await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 })).messages[0].ts).toBe(posted.ts);

    const reply = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'on it', thread_ts: posted.ts });
    expect(reply.message).toMatchObject({ thread_ts: posted.ts, parent_user_id: sb.botUserId });
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 });
    expect(history.messages[0]).toMatchObject({ ts: posted.ts, reply_count: 1, latest_reply: reply.ts, reply_users: [sb.botUserId] });

    const broadcast = await ok(
      sb,
      'chat.postMessage',
      { channel: channel.id, text: 'for everyone', thread_ts: posted.ts, reply_broadcast: 'true' },
      { form: 'form' },
    );
    expect(broadcast.message.subtype).toBe('thread_broadcast');
    const after = await ok(sb, 'conversations.history', { channel: channel.id, limit: 2 });
    expect(after.messages.map((m: { ts: string }) => m.ts)).toEqual([broadcast.ts, posted.ts]);
    const thread = await ok(sb, 'conversations.replies', { channel: channel.id, ts: posted.ts });
    expect(thread.messages.map((m: { text: string }) => m.text)).toEqual(['Ship it *today*', 'on it', 'for everyone']);

    // Replying to a reply lands in the same thread; channels can be named instead of identified.
    await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'nested', thread_ts: reply.ts });
    await ok(sb, 'chat.postMessage', { channel: `#${channel.name}`, text: 'by name' });
    const blocksOnly = await ok(sb, 'chat.postMessage', { channel: channel.id, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }] });
    expect(blocksOnly.message.blocks).toHaveLength(1);
    expect((await ok(sb, 'conversations.replies', { channel: channel.id, ts: posted.ts })).messages).toHaveLength(4);
  });

  it('chat.postMessage errors', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    await fails(sb, 'chat.postMessage', { channel: 'C0NOPE1234', text: 'x' }, 'channel_not_found');
    await fails(sb, 'chat.postMessage', { text: 'x' }, 'channel_not_found', { requestProblems: ['required argument "channel" is missing'] });
    await fails(sb, 'chat.postMessage', { channel: hiddenPrivate(sb).id, text: 'x' }, 'channel_not_found');
    await fails(sb, 'chat.postMessage', { channel: outsiderChannel(sb).id, text: 'x' }, 'not_in_channel');
    await fails(sb, 'chat.postMessage', { channel: archivedChannel(sb).id, text: 'x' }, 'is_archived');
    await fails(sb, 'chat.postMessage', { channel: channel.id }, 'no_text');
    await fails(sb, 'chat.postMessage', { channel: channel.id, text: '' }, 'no_text');
    await fails(sb, 'chat.postMessage', { channel: channel.id, text: 'x'.repeat(40_001) }, 'msg_too_long');
    await fails(sb, 'chat.postMessage', { channel: channel.id, text: 'x', thread_ts: 'abc' }, 'invalid_thread_ts');
    await fails(sb, 'chat.postMessage', { channel: channel.id, text: 'x', thread_ts: '1000000000.000001' }, 'thread_not_found');
    await fails(sb, 'chat.postMessage', { channel: channel.id, blocks: '[not json' }, 'invalid_blocks', { form: 'form' });
    expect((await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'x'.repeat(40_000) })).message.text).toHaveLength(40_000);
  });

  it("chat.update: edits the bot's own message, and its errors", async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const posted = await ok(sb, 'chat.postMessage', { channel: channel.id, text: 'draft' });
    const edited = await ok(sb, 'chat.update', { channel: channel.id, ts: posted.ts, text: 'final' });
    expect(Object.keys(edited).sort()).toEqual(['channel', 'message', 'ok', 'text', 'ts']);
    expect(edited).toMatchObject({ channel: channel.id, ts: posted.ts, text: 'final', message: { text: 'final', user: sb.botUserId } });
    expect(edited.message.edited).toEqual({ user: sb.botUserId, ts: expect.stringMatching(/^\d{10}\.\d{6}$/) });
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 });
    expect(history.messages[0]).toMatchObject({ ts: posted.ts, text: 'final', edited: { user: sb.botUserId } });

    await fails(sb, 'chat.update', { channel: channel.id, ts: '1000000000.000001', text: 'x' }, 'message_not_found');
    await fails(sb, 'chat.update', { channel: channel.id, text: 'x' }, 'message_not_found', { requestProblems: ['required argument "ts" is missing'] });
    await fails(sb, 'chat.update', { channel: channel.id, ts: othersMessage(sb, channel).ts, text: 'x' }, 'cant_update_message');
    await fails(sb, 'chat.update', { channel: 'C0NOPE1234', ts: posted.ts, text: 'x' }, 'channel_not_found');
    await fails(sb, 'chat.update', { channel: channel.id, ts: posted.ts, text: '' }, 'no_text');
    await fails(sb, 'chat.update', { channel: channel.id, ts: posted.ts, text: 'y'.repeat(40_001) }, 'msg_too_long');
    await ok(sb, 'chat.update', { channel: channel.id, ts: posted.ts, text: 'via form' }, { form: 'form' });
  });

  it('reactions.add: adds, aliases, and every error', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    const theirs = othersMessage(sb, channel);
    const before = theirs.reactions?.find((r) => r.name === 'eyes')?.count ?? 0;
    expect(await ok(sb, 'reactions.add', { channel: channel.id, timestamp: theirs.ts, name: 'eyes' })).toEqual({ ok: true });
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 999 });
    const reacted = history.messages.find((m: { ts: string }) => m.ts === theirs.ts);
    expect(reacted.reactions).toContainEqual({ name: 'eyes', users: expect.arrayContaining([sb.botUserId]), count: before + 1 });
    await fails(sb, 'reactions.add', { channel: channel.id, timestamp: theirs.ts, name: 'eyes' }, 'already_reacted');

    // thumbsup is stored as its alias +1, so both spellings are the same reaction.
    await ok(sb, 'reactions.add', { channel: channel.id, timestamp: theirs.ts, name: 'thumbsup' }, { form: 'form' });
    await fails(sb, 'reactions.add', { channel: channel.id, timestamp: theirs.ts, name: '+1' }, 'already_reacted');
    const reply = messagesOf(sb, channel).find((m) => m.thread_ts && m.thread_ts !== m.ts)!;
    await ok(sb, 'reactions.add', { channel: channel.id, timestamp: reply.ts, name: 'rocket' });

    await fails(sb, 'reactions.add', { channel: channel.id, timestamp: theirs.ts, name: 'not_an_emoji' }, 'invalid_name');
    await fails(sb, 'reactions.add', { timestamp: theirs.ts, name: 'tada' }, 'no_item_specified', {
      requestProblems: ['required argument "channel" is missing'],
    });
    await fails(sb, 'reactions.add', { channel: channel.id, name: 'tada' }, 'no_item_specified', {
      requestProblems: ['required argument "timestamp" is missing'],
    });
    await fails(sb, 'reactions.add', { channel: channel.id, timestamp: 'yesterday', name: 'tada' }, 'bad_timestamp');
    await fails(sb, 'reactions.add', { channel: channel.id, timestamp: '1000000000.000001', name: 'tada' }, 'message_not_found');
    await fails(sb, 'reactions.add', { channel: 'C0NOPE1234', timestamp: theirs.ts, name: 'tada' }, 'channel_not_found');
  });
});

describe('Slack sandbox: faults', () => {
  it('a 429 fault answers ratelimited with Retry-After, then the method works again', async () => {
    const sb = await start();
    sb.addFault({ method: 'users.list', status: 429, retryAfter: 7, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await call(sb, 'users.list', { limit: 2 });
      expect([r.status, r.headers.get('retry-after'), r.body]).toEqual([429, '7', { ok: false, error: 'ratelimited' }]);
    }
    expect((await ok(sb, 'users.list', { limit: 2 })).members).toHaveLength(2);
    // Other methods are unaffected; faulted requests are logged like the rest.
    expect(sb.requests.filter((e) => e.method === 'users.list')).toHaveLength(3);
  });

  it('faults can be injected over HTTP (token required)', async () => {
    const sb = await start();
    const faultsUrl = sb.url.replace(/\/api$/, '/_sandbox/faults');
    const fault = { method: 'conversations.list', status: 429, retryAfter: 3 };
    const unauthorised = await fetch(faultsUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
    expect(unauthorised.status).toBe(401);
    const bad = await fetch(faultsUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"method":"x","status":200}',
    });
    expect(bad.status).toBe(400);
    const res = await fetch(faultsUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
    expect([res.status, await res.json()]).toEqual([200, { ok: true }]);
    const limited = await call(sb, 'conversations.list');
    expect([limited.status, limited.headers.get('retry-after'), limited.body]).toEqual([429, '3', { ok: false, error: 'ratelimited' }]);
    await ok(sb, 'conversations.list');
  });

  it('a 500 fault with afterProcessing performs the write, then fails ambiguously', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    sb.addFault({ method: 'chat.postMessage', status: 500, afterProcessing: true });
    const r = await call(sb, 'chat.postMessage', { channel: channel.id, text: 'exactly once' });
    expect([r.status, r.body]).toEqual([500, { ok: false, error: 'internal_error' }]);
    const history = await ok(sb, 'conversations.history', { channel: channel.id, limit: 1 });
    expect(history.messages[0].text).toBe('exactly once');
    expect(messagesOf(sb, channel).filter((m) => m.text === 'exactly once')).toHaveLength(1);
  });

  it('a 503 fault answers a non-JSON gateway page without performing the call', async () => {
    const sb = await start();
    const channel = memberChannel(sb);
    sb.addFault({ method: 'chat.postMessage', status: 503 });
    const r = await call(sb, 'chat.postMessage', { channel: channel.id, text: 'lost' });
    expect(r.status).toBe(503);
    expect(r.body).toBeUndefined();
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(messagesOf(sb, channel).some((m) => m.text === 'lost')).toBe(false);
    expect(() => sb.addFault({ method: 'users.list', status: 200 })).toThrow(RangeError);
  });
});

describe('Slack sandbox: seeded data', () => {
  it('is deterministic: the same seed gives identical data, another seed differs', async () => {
    const a = await start({ seed: 7 });
    const b = await start({ seed: 7 });
    const c = await start({ seed: 8 });
    const users = async (sb: SlackSandbox) => (await ok(sb, 'users.list')).members;
    expect(await users(a)).toEqual(await users(b));
    expect(await users(a)).not.toEqual(await users(c));
    const channels = async (sb: SlackSandbox) => (await ok(sb, 'conversations.list', { types: 'public_channel,private_channel,mpim,im' })).channels;
    expect(await channels(a)).toEqual(await channels(b));
    const general = (sb: SlackSandbox) => sb.data.channels.find((ch) => ch.is_general)!.id;
    const history = async (sb: SlackSandbox) => (await ok(sb, 'conversations.history', { channel: general(sb), limit: 999 })).messages;
    expect(await history(a)).toEqual(await history(b));
    expect(a.botUserId).toBe(b.botUserId);
  });

  it('honours sizes and keeps ts unique and increasing within every conversation', async () => {
    const sb = await start({ users: 12, channels: 7, messagesPerChannel: 15 });
    expect(sb.data.users).toHaveLength(12);
    expect(sb.data.channels.filter((ch) => ch.kind === 'public_channel' || ch.kind === 'private_channel')).toHaveLength(7);
    expect(sb.data.users.some((u) => u.id === sb.botUserId && u.is_bot)).toBe(true);
    for (const [id, list] of sb.data.messages) {
      const ts = list.map((m) => m.micros);
      expect(ts).toEqual([...ts].sort((x, y) => x - y));
      expect(new Set(ts).size).toBe(ts.length);
      const channel = sb.data.channels.find((ch) => ch.id === id)!;
      if (channel.kind === 'public_channel' || channel.kind === 'private_channel') {
        expect(list.filter((m) => !m.thread_ts || m.thread_ts === m.ts)).toHaveLength(15);
      }
    }
  });
});
