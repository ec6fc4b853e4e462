import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, RateLimitedError, UpstreamError } from '../index.ts';
import type { TransportSettings, UpstreamErrorSettings } from '../core/sdk/index.ts';
import { listen } from '../testing/index.ts';
import chatConnector from '../connectors/chat/index.ts';
import { validateSlackRequest } from './helpers/slack-openapi.ts';
import { CHAT_TOKEN, issuesOf, memberChannel, rejectionOf, startChatFixture } from './helpers/chat-fixture.ts';

let fx: Awaited<ReturnType<typeof startChatFixture>>;

beforeAll(async () => {
  fx = await startChatFixture();
});
afterAll(async () => {
  await fx.sandbox.close();
});

/** Asserts every record validates against the action's record schema (schemas/chat/records). */
function expectRecords(entity: string, action: string, records: unknown) {
  const { validateRecord } = fx.plugin.resolve(entity, action);
  for (const record of Array.isArray(records) ? records : [records]) {
    const ok = validateRecord(record);
    expect(validateRecord.errors ?? [], JSON.stringify(record).slice(0, 300)).toEqual([]);
    expect(ok).toBe(true);
  }
}

describe('chat connector, every operation against the Slack sandbox', () => {
  it('users.list and users.get', async () => {
    const page = await fx.chat.users.list({ limit: 10 });
    expect(page.status).toBe('success');
    expect(page.result).toHaveLength(10);
    expect(Object.keys(page.connector_metadata)).toEqual(['next_cursor']);
    expect(typeof page.connector_metadata.next_cursor).toBe('string');
    expectRecords('users', 'list', page.result);
    // Every field of the user record schema is present, null when Slack left it out.
    for (const field of ['id', 'team_id', 'name', 'tz', 'tz_label', 'is_admin', 'is_email_confirmed', 'who_can_share_contact_card', 'profile']) {
      expect(page.result[0]).toHaveProperty(field);
    }
    const one = await fx.chat.users.get({ user: page.result[3]!.id });
    expect(one.result.id).toBe(page.result[3]!.id);
    expect(one.connector_metadata).toEqual({});
    expectRecords('users', 'get', one.result);
  });

  it('paginates users with no gaps or duplicates, and says null on the last page', async () => {
    const ids: string[] = [];
    for await (const user of fx.chat.paginate({ entity: 'users', action: 'list', params: { limit: 7 } })) ids.push(user.id);
    expect(ids.length).toBe(fx.sandbox.data.users.length);
    expect(new Set(ids).size).toBe(ids.length);
    const all = await fx.chat.users.list({ limit: 1000 });
    expect(all.connector_metadata.next_cursor).toBeNull();
  });

  it('channels.list with types and exclude_archived, channels.get', async () => {
    const publicOnly = await fx.chat.channels.list({ limit: 1000 });
    expect(publicOnly.result.every((c) => c.is_channel && !c.is_private)).toBe(true);
    const mixed = await fx.chat.channels.list({ limit: 1000, types: 'public_channel,private_channel,mpim,im' });
    expect(mixed.result.some((c) => c.is_private)).toBe(true);
    expect(mixed.result.some((c) => c.is_im)).toBe(true);
    expect(mixed.result.length).toBeGreaterThan(publicOnly.result.length);
    expect(publicOnly.result.some((c) => c.is_archived)).toBe(true);
    const active = await fx.chat.channels.list({ limit: 1000, exclude_archived: true });
    expect(active.result.some((c) => c.is_archived)).toBe(false);
    expectRecords('channels', 'list', mixed.result);
    const first = await fx.chat.channels.list({ limit: 2 });
    expect(first.result).toHaveLength(2);
    const second = await fx.chat.channels.list({ limit: 2, cursor: first.connector_metadata.next_cursor! });
    expect(second.result[0]!.id).not.toBe(first.result[0]!.id);
    const one = await fx.chat.channels.get({ channel: publicOnly.result[0]!.id });
    expect(one.result.id).toBe(publicOnly.result[0]!.id);
    expectRecords('channels', 'get', one.result);
  });

  it('channels.create (public and private) and channels.update', async () => {
    const created = await fx.chat.channels.create({ name: 'launch-room' });
    expect(created.result).toMatchObject({ name: 'launch-room', is_private: false, is_member: true });
    expectRecords('channels', 'create', created.result);
    const secret = await fx.chat.channels.create({ name: 'secret_room', is_private: true });
    expect(secret.result.is_private).toBe(true);
    const renamed = await fx.chat.channels.update({ channel: created.result.id, name: 'launch-room-2' });
    expect(renamed.result.name).toBe('launch-room-2');
    expectRecords('channels', 'update', renamed.result);
    const exact80 = 'a'.repeat(80);
    expect((await fx.chat.channels.create({ name: exact80 })).result.name).toBe(exact80);
  });

  it('channel_messages.list with range bounds, has_more and cursors', async () => {
    const channel = await memberChannel(fx);
    const page = await fx.chat.channel_messages.list({ channel: channel.id, limit: 5 });
    expect(page.result).toHaveLength(5);
    expect(Object.keys(page.connector_metadata).sort()).toEqual(['has_more', 'next_cursor']);
    expect(page.connector_metadata.has_more).toBe(true);
    expectRecords('channel_messages', 'list', page.result);
    // Newest first.
    expect(Number(page.result[0]!.ts)).toBeGreaterThan(Number(page.result[4]!.ts));
    const next = await fx.chat.channel_messages.list({ channel: channel.id, limit: 5, cursor: page.connector_metadata.next_cursor! });
    expect(next.result[0]!.ts).not.toBe(page.result[0]!.ts);

    const [newest, , middle] = page.result;
    const exclusive = await fx.chat.channel_messages.list({ channel: channel.id, oldest: middle!.ts, latest: newest!.ts });
    expect(exclusive.result.map((m) => m.ts)).toEqual([page.result[1]!.ts]);
    const inclusive = await fx.chat.channel_messages.list({ channel: channel.id, oldest: middle!.ts, latest: newest!.ts, inclusive: true });
    expect(inclusive.result.map((m) => m.ts)).toEqual([newest!.ts, page.result[1]!.ts, middle!.ts]);
    expect(inclusive.connector_metadata).toEqual({ next_cursor: null, has_more: false });

    let count = 0;
    for await (const _ of fx.chat.paginate({ entity: 'channel_messages', action: 'list', params: { channel: channel.id, limit: 4 } })) count += 1;
    const everything = await fx.chat.channel_messages.list({ channel: channel.id, limit: 999 });
    expect(count).toBe(everything.result.length);
  });

  it('messages.create, thread replies, threads.list, messages.update, reactions.create', async () => {
    const channel = await memberChannel(fx);
    const posted = await fx.chat.messages.create({ channel: channel.id, text: 'Ship it *today*', unfurl_links: false, unfurl_media: false });
    expect(posted.result).toMatchObject({ text: 'Ship it *today*', user: fx.sandbox.botUserId });
    expect(posted.result.ts).toMatch(/^\d{10}\.\d{6}$/);
    expectRecords('messages', 'create', posted.result);

    const reply = await fx.chat.messages.create({ channel: channel.id, text: 'on it', thread_ts: posted.result.ts, reply_broadcast: true });
    const thread = await fx.chat.threads.list({ channel: channel.id, ts: posted.result.ts });
    expect(thread.result.map((m) => m.text)).toEqual(['Ship it *today*', 'on it']);
    expect(thread.result[1]).toMatchObject({ ts: reply.result.ts, thread_ts: posted.result.ts, parent_user_id: fx.sandbox.botUserId });
    expect(thread.connector_metadata).toEqual({ next_cursor: null, has_more: false });
    expectRecords('threads', 'list', thread.result);

    const edited = await fx.chat.messages.update({ channel: channel.id, ts: posted.result.ts, text: 'Ship it tomorrow' });
    // chat.update's message lacks ts; the record still carries it.
    expect(edited.result).toMatchObject({ ts: posted.result.ts, text: 'Ship it tomorrow' });
    expectRecords('messages', 'update', edited.result);

    const reacted = await fx.chat.reactions.create({ channel: channel.id, timestamp: posted.result.ts, name: 'rocket' });
    expect(reacted.result).toEqual({ ok: true });
    expectRecords('reactions', 'create', reacted.result);
    const history = await fx.chat.channel_messages.list({ channel: channel.id, limit: 3 });
    const parent = history.result.find((m) => m.ts === posted.result.ts)!;
    expect(parent).toMatchObject({ text: 'Ship it tomorrow', reply_count: 1 });
    expect(parent.reactions).toEqual([{ name: 'rocket', users: [fx.sandbox.botUserId], count: 1 }]);
  });

  it('threads.list over a seeded thread, paginated', async () => {
    const channel = await memberChannel(fx);
    const history = await fx.chat.channel_messages.list({ channel: channel.id, limit: 999 });
    const parent = history.result.find((m) => (m.reply_count ?? 0) >= 2);
    expect(parent).toBeDefined();
    const ts = [];
    for await (const m of fx.chat.paginate({ entity: 'threads', action: 'list', params: { channel: channel.id, ts: parent!.ts, limit: 1 } })) ts.push(m.ts);
    expect(ts[0]).toBe(parent!.ts);
    expect(ts.length).toBe(parent!.reply_count! + 1);
  });

  it('channel_topics.create and channel_purposes.create', async () => {
    const channel = await memberChannel(fx);
    const topic = await fx.chat.channel_topics.create({ channel: channel.id, topic: 't'.repeat(250) });
    expect((topic.result.topic as { value: string }).value).toBe('t'.repeat(250));
    expectRecords('channel_topics', 'create', topic.result);
    const purpose = await fx.chat.channel_purposes.create({ channel: channel.id, purpose: 'Where launches are planned' });
    expect((purpose.result.purpose as { value: string }).value).toBe('Where launches are planned');
    expectRecords('channel_purposes', 'create', purpose.result);
  });

  it('works with OAuth credentials (access_token) as well', async () => {
    const chat = fx.runtime.connector('chat', { credentials: { access_token: CHAT_TOKEN }, base_url: fx.sandbox.url });
    expect((await chat.users.list({ limit: 1 })).result).toHaveLength(1);
  });

  it('search is hosted-only: a clear 400 in-process', async () => {
    const error = await rejectionOf(fx.chat.users.search({ query: { filter: { eq: { is_admin: true } } } }));
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({ detail: expect.stringMatching(/hosted mode only/), error_code: 'hosted_mode_only' });
    expect((await rejectionOf(fx.chat.execute({ entity: 'channels', action: 'search', params: { query: {} } }))).error_code).toBe('hosted_mode_only');
  });

  it('sent only requests the Slack spec declares', () => {
    const sent = fx.sandbox.requests.filter((entry) => !entry.method.startsWith('_'));
    expect(sent.length).toBeGreaterThan(20);
    for (const entry of sent) expect(validateSlackRequest(entry), `${entry.httpMethod} ${entry.method}`).toEqual([]);
    // Reads travel as GET query strings, writes as JSON bodies.
    expect(sent.filter((e) => e.method === 'users.list').every((e) => e.httpMethod === 'GET' && e.argForm === 'query')).toBe(true);
    expect(sent.filter((e) => e.method === 'chat.postMessage').every((e) => e.httpMethod === 'POST' && e.argForm === 'json')).toBe(true);
  });
});

describe("validation and the param schemas' limits", () => {
  /** Sends a request the typed client would refuse at compile time, to check the run-time checks. */
  const raw = (request: Record<string, unknown>) => fx.chat.execute(request as never);

  it('a missing required param is "field required" / value_error.missing at body.params.<name>', async () => {
    expect(await issuesOf(raw({ entity: 'channels', action: 'get', params: {} }))).toEqual([
      { loc: ['body', 'params', 'channel'], msg: 'field required', type: 'value_error.missing' },
    ]);
    const many = await issuesOf(raw({ entity: 'reactions', action: 'create' }));
    expect(many.map((i) => i.loc.at(-1)).sort()).toEqual(['channel', 'name', 'timestamp']);
    expect(many.every((i) => i.msg === 'field required' && i.type === 'value_error.missing')).toBe(true);
  });

  it('channel names: lowercase, no spaces, at most 80 characters', async () => {
    const [tooLong] = await issuesOf(fx.chat.channels.create({ name: 'a'.repeat(81) }));
    expect(tooLong).toMatchObject({ loc: ['body', 'params', 'name'], type: 'value_error.any_str.max_length' });
    const [upper] = await issuesOf(fx.chat.channels.create({ name: 'Launch' }));
    expect(upper).toEqual({ loc: ['body', 'params', 'name'], msg: expect.stringMatching(/lowercase/), type: 'value_error.str.regex' });
    await issuesOf(fx.chat.channels.create({ name: 'two words' }));
    await issuesOf(fx.chat.channels.create({ name: '' }));
    await issuesOf(fx.chat.channels.update({ channel: 'C1', name: 'Bad Name' }));
    await issuesOf(fx.chat.channels.update({ channel: 'C1', name: 'x'.repeat(81) }));
  });

  it('topic and purpose: at most 250 characters', async () => {
    const [topic] = await issuesOf(fx.chat.channel_topics.create({ channel: 'C1', topic: 'x'.repeat(251) }));
    expect(topic).toMatchObject({ loc: ['body', 'params', 'topic'], msg: 'ensure this value has at most 250 characters' });
    const [purpose] = await issuesOf(fx.chat.channel_purposes.create({ channel: 'C1', purpose: 'x'.repeat(251) }));
    expect(purpose!.loc).toEqual(['body', 'params', 'purpose']);
  });

  it('channels.list types: only public_channel, private_channel, mpim, im', async () => {
    for (const types of ['public', 'public_channel,', 'public_channel, im', 'dm', '']) {
      const [issue] = await issuesOf(fx.chat.channels.list({ types }));
      expect(issue).toMatchObject({ loc: ['body', 'params', 'types'], msg: expect.stringMatching(/public_channel, private_channel, mpim, im/) });
    }
    expect((await fx.chat.channels.list({ types: 'im,mpim' })).result.every((c) => c.is_im || c.is_mpim)).toBe(true);
  });

  it('wrong types, out-of-range limits, unknown params and bad timestamps', async () => {
    expect((await issuesOf(raw({ entity: 'users', action: 'list', params: { limit: '10' } })))[0]).toEqual({
      loc: ['body', 'params', 'limit'],
      msg: 'value is not a valid integer',
      type: 'type_error.integer',
    });
    await issuesOf(fx.chat.users.list({ limit: 0 }));
    await issuesOf(fx.chat.users.list({ limit: 1001 }));
    await issuesOf(fx.chat.channel_messages.list({ channel: 'C1', limit: 1000 }));
    expect((await issuesOf(raw({ entity: 'users', action: 'get', params: { user: 'U1', channel_id: 'x' } })))[0]).toEqual({
      loc: ['body', 'params', 'channel_id'],
      msg: 'extra fields not permitted',
      type: 'value_error.extra',
    });
    await issuesOf(fx.chat.channel_messages.list({ channel: 'C1', oldest: 'yesterday' }));
    await issuesOf(raw({ entity: 'users', action: 'list', params: [] }));
    await issuesOf(raw({ entity: 'channels', action: 'create', params: { name: 'ok', is_private: 'yes' } }));
  });

  it('unknown entity, unknown action, or an action the entity does not offer: 422 naming what is allowed', async () => {
    const [entity] = await issuesOf(raw({ entity: 'emails', action: 'list' }));
    expect(entity).toEqual({
      loc: ['body', 'entity'],
      msg: 'unknown entity "emails" for connector type "chat"; allowed: users, channels, channel_messages, threads, messages, channel_topics, channel_purposes, reactions, auth_test',
      type: 'value_error.unknown_entity',
    });
    const [action] = await issuesOf(raw({ entity: 'users', action: 'delete' }));
    expect(action).toMatchObject({
      loc: ['body', 'action'],
      msg: 'unknown action "delete"; allowed for users: list, get, search',
      type: 'value_error.unknown_action',
    });
    const [offered] = await issuesOf(raw({ entity: 'users', action: 'create' }));
    expect(offered).toMatchObject({
      loc: ['body', 'action'],
      msg: 'entity "users" does not offer action "create"; allowed: list, get, search',
      type: 'value_error.action_not_allowed',
    });
    const [missing] = await issuesOf(raw({ action: 'list' } as never));
    expect(missing).toEqual({ loc: ['body', 'entity'], msg: 'field required', type: 'value_error.missing' });
  });
});

describe('upstream error mapping', () => {
  const failure = async (promise: Promise<unknown>) => (await rejectionOf(promise)).toJSON();

  it('maps Slack ok:false codes to statuses, keeping the Slack code', async () => {
    const channel = await memberChannel(fx);
    expect(await failure(fx.chat.channels.get({ channel: 'C0NOPE' }))).toEqual({
      detail: 'Upstream rejected the request: channel_not_found',
      error_code: 'channel_not_found',
    });
    expect((await rejectionOf(fx.chat.channels.get({ channel: 'C0NOPE' }))).status).toBe(404);
    expect((await rejectionOf(fx.chat.users.get({ user: 'U0NOPE' }))).status).toBe(404);
    const taken = await rejectionOf(fx.chat.channels.create({ name: channel.name! }));
    expect([taken.status, taken.error_code]).toEqual([409, 'name_taken']);
    const specials = await rejectionOf(fx.chat.channels.create({ name: 'bad!name' }));
    expect([specials.status, specials.error_code]).toEqual([400, 'invalid_name_specials']);
    const gone = await rejectionOf(fx.chat.messages.update({ channel: channel.id, ts: '1000000000.000001', text: 'x' }));
    expect([gone.status, gone.error_code]).toEqual([404, 'message_not_found']);

    const history = await fx.chat.channel_messages.list({ channel: channel.id, limit: 999 });
    const theirs = history.result.find((m) => m.user && m.user !== fx.sandbox.botUserId)!;
    const cant = await rejectionOf(fx.chat.messages.update({ channel: channel.id, ts: theirs.ts, text: 'x' }));
    expect([cant.status, cant.error_code]).toEqual([400, 'cant_update_message']);
    await fx.chat.reactions.create({ channel: channel.id, timestamp: theirs.ts, name: 'eyes' });
    const twice = await rejectionOf(fx.chat.reactions.create({ channel: channel.id, timestamp: theirs.ts, name: 'eyes' }));
    expect([twice.status, twice.error_code]).toEqual([409, 'already_reacted']);

    const all = await fx.chat.channels.list({ limit: 1000 });
    const archived = all.result.find((c) => c.is_archived)!;
    const frozen = await rejectionOf(fx.chat.messages.create({ channel: archived.id, text: 'hello?' }));
    expect([frozen.status, frozen.error_code]).toEqual([409, 'is_archived']);
  });

  it('a refused token is a 502 that never echoes the token', async () => {
    const chat = fx.runtime.connector('chat', { credentials: { token: 'xoxb-wrong-secret-9' }, base_url: fx.sandbox.url });
    const error = await rejectionOf(chat.users.list());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.toJSON()).toEqual({ detail: 'Upstream rejected the request: invalid_auth', error_code: 'invalid_auth' });
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain('xoxb-wrong-secret-9');
  });

  it('honours 429 Retry-After, then succeeds', async () => {
    fx.sandbox.addFault({ method: 'users.list', status: 429, retryAfter: 1 });
    const before = fx.sandbox.requests.length;
    const started = Date.now();
    const page = await fx.chat.users.list({ limit: 2 });
    expect(page.result).toHaveLength(2);
    const calls = fx.sandbox.requests.slice(before).filter((e) => e.method === 'users.list');
    expect(calls).toHaveLength(2);
    // A lower bound only: the retry waited for the Retry-After the sandbox asked for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a rate-limited write too (429 means Slack did not process it)', async () => {
    const channel = await memberChannel(fx);
    fx.sandbox.addFault({ method: 'chat.postMessage', status: 429, retryAfter: 1 });
    const posted = await fx.chat.messages.create({ channel: channel.id, text: 'after the rate limit' });
    expect(posted.result.text).toBe('after the rate limit');
  });

  it('fails at once with 429 when Retry-After exceeds the bound', async () => {
    fx.sandbox.addFault({ method: 'users.list', status: 429, retryAfter: 600 });
    const before = fx.sandbox.requests.length;
    const error = await rejectionOf(fx.chat.users.list({ limit: 2 }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.status).toBe(429);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(600);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'users.list')).toHaveLength(1);
  });

  it('retries a read after a 5xx', async () => {
    fx.sandbox.addFault({ method: 'conversations.list', status: 503 });
    const before = fx.sandbox.requests.length;
    expect((await fx.chat.channels.list({ limit: 1 })).result).toHaveLength(1);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'conversations.list')).toHaveLength(2);
  });

  it('retries a read when Slack reports its own failure in a 200 body, never a write', async () => {
    fx.sandbox.addFault({ method: 'conversations.list', status: 200, error: 'internal_error' });
    let before = fx.sandbox.requests.length;
    expect((await fx.chat.channels.list({ limit: 1 })).result).toHaveLength(1);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'conversations.list')).toHaveLength(2);
    const channel = await memberChannel(fx);
    fx.sandbox.addFault({ method: 'chat.postMessage', status: 200, error: 'fatal_error', afterProcessing: true });
    before = fx.sandbox.requests.length;
    const error = await rejectionOf(fx.chat.messages.create({ channel: channel.id, text: 'maybe posted' }));
    expect([error.status, error.error_code]).toEqual([502, 'fatal_error']);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'chat.postMessage')).toHaveLength(1);
    // A rate limit reported in a 200 body was not processed: retried, write or not.
    fx.sandbox.addFault({ method: 'chat.postMessage', status: 200, error: 'ratelimited', retryAfter: 0 });
    expect((await fx.chat.messages.create({ channel: channel.id, text: 'after a limit' })).result.text).toBe('after a limit');
  });

  it('an error status keeps its meaning whatever ok:false code its body carries: 5xx retried for reads, then 502', async () => {
    fx.sandbox.addFault({ method: 'conversations.list', status: 503, error: 'weird_thing' });
    let before = fx.sandbox.requests.length;
    expect((await fx.chat.channels.list({ limit: 1 })).result).toHaveLength(1);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'conversations.list')).toHaveLength(2);
    fx.sandbox.addFault({ method: 'conversations.list', status: 503, error: 'weird_thing', count: 4 });
    const exhausted = await rejectionOf(fx.chat.channels.list({ limit: 1 }));
    expect([exhausted.status, exhausted.error_code]).toEqual([502, 'weird_thing']);
    fx.sandbox.addFault({ method: 'conversations.list', status: 403, error: 'weird_thing' });
    before = fx.sandbox.requests.length;
    const refused = await rejectionOf(fx.chat.channels.list({ limit: 1 }));
    expect([refused.status, refused.error_code]).toEqual([502, 'weird_thing']);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'conversations.list')).toHaveLength(1);
  });

  it('never replays a write after a 5xx: one request, a 502, and the caller learns the outcome is unknown', async () => {
    const channel = await memberChannel(fx);
    fx.sandbox.addFault({ method: 'chat.postMessage', status: 500, afterProcessing: true });
    const before = fx.sandbox.requests.length;
    const error = await rejectionOf(fx.chat.messages.create({ channel: channel.id, text: 'exactly once' }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'chat.postMessage')).toHaveLength(1);
    const history = await fx.chat.channel_messages.list({ channel: channel.id, limit: 5 });
    expect(history.result.filter((m) => m.text === 'exactly once')).toHaveLength(1);
  });

  it('an unreachable upstream is a 502, after retries for reads', async () => {
    const chat = fx.runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: 'http://127.0.0.1:9/api' });
    const error = await rejectionOf(chat.channels.create({ name: 'nowhere' }));
    expect(error.status).toBe(502);
    expect(error.error_code).toBe('upstream_econnrefused');
  });
});

/** The chat connector with other transport settings (fewer retries, declared codes), against `baseUrl`. */
async function chatWith(baseUrl: string, transport: Partial<TransportSettings>, errors: Partial<UpstreamErrorSettings> = {}) {
  const runtime = await createRuntime({ builtins: false });
  runtime.registerConnector({
    ...chatConnector,
    transport: { ...chatConnector.transport, ...transport, errors: { ...chatConnector.transport.errors, ...errors } },
  });
  return runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: baseUrl });
}

interface Scripted {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A stand-in upstream answering what a test scripts, in order: the Slack sandbox never answers a
 * transient failure inside an HTTP 200 `ok: false` body, nor a bare 431.
 */
class ScriptedUpstream {
  readonly hits: string[] = [];
  private readonly script: Scripted[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedUpstream> {
    let upstream: ScriptedUpstream | undefined;
    const server = createServer((req, res) => {
      upstream!.hits.push(new URL(req.url ?? '/', 'http://x').pathname);
      const next = upstream!.script.shift() ?? { status: 500, body: { ok: false, error: 'script_exhausted' } };
      const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
      const type = typeof next.body === 'string' ? 'text/html' : 'application/json; charset=utf-8';
      res.writeHead(next.status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...next.headers });
      res.end(text);
    });
    upstream = new ScriptedUpstream(server, `${await listen(server)}/api`);
    return upstream;
  }

  answer(...responses: Scripted[]): void {
    this.hits.length = 0;
    this.script.length = 0;
    this.script.push(...responses);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('transport: failures inside 200 bodies, and upstream statuses without a code', () => {
  let upstream: ScriptedUpstream;
  /** As the chat manifest should declare them (see connectors/chat): Slack's transient and rate-limit codes. */
  const slackTransient = { transientCodes: ['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout'], rateLimitCodes: ['ratelimited'] };
  const slackFailure = (error: string): Scripted => ({ status: 200, body: { ok: false, error } });
  const usersPage: Scripted = { status: 200, body: { ok: true, members: [{ id: 'U1', name: 'ada' }], response_metadata: { next_cursor: '' } } };

  beforeAll(async () => {
    upstream = await ScriptedUpstream.start();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('retries a read on a declared transient ok:false code, then succeeds', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    upstream.answer(slackFailure('internal_error'), usersPage);
    const page = await chat.users.list();
    expect(page.result.map((u) => u.id)).toEqual(['U1']);
    expect(upstream.hits).toEqual(['/api/users.list', '/api/users.list']);
  });

  it('a transient code still there after the retries is a 502 carrying it', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    upstream.answer(slackFailure('internal_error'), slackFailure('service_unavailable'));
    const error = await rejectionOf(chat.users.list());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.toJSON()).toEqual({ detail: 'Upstream rejected the request: service_unavailable', error_code: 'service_unavailable' });
    expect(upstream.hits).toHaveLength(2);
  });

  it('never replays a write after a transient code (Slack may have done part of it)', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    upstream.answer(slackFailure('fatal_error'));
    const error = await rejectionOf(chat.messages.create({ channel: 'C1', text: 'once' }));
    expect([error.status, error.error_code]).toEqual([502, 'fatal_error']);
    expect(upstream.hits).toEqual(['/api/chat.postMessage']);
  });

  it('an undeclared ok:false code is not retried', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    upstream.answer(slackFailure('channel_not_found'));
    const error = await rejectionOf(chat.channels.get({ channel: 'C0NOPE' }));
    expect([error.status, error.error_code]).toEqual([404, 'channel_not_found']);
    expect(upstream.hits).toHaveLength(1);
  });

  it('a rate-limit code inside a 200 is retried like a 429, writes included, then a 429 with Retry-After', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    const limited: Scripted = { ...slackFailure('ratelimited'), headers: { 'retry-after': '1' } };
    upstream.answer(limited, {
      status: 200,
      body: { ok: true, channel: 'C1', ts: '1700000000.000100', message: { type: 'message', text: 'hi', ts: '1700000000.000100' } },
    });
    const posted = await chat.messages.create({ channel: 'C1', text: 'hi' });
    expect(posted.result.text).toBe('hi');
    expect(upstream.hits).toHaveLength(2);
    upstream.answer(limited, limited);
    const error = await rejectionOf(chat.users.list());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect([error.status, error.error_code, (error as RateLimitedError).retryAfterSeconds]).toEqual([429, 'ratelimited', 1]);
    expect(upstream.hits).toHaveLength(2);
  });

  it('an upstream 5xx without a code is a 502 naming the real status (upstream_http_503)', async () => {
    // The Slack sandbox answers a 503 as an HTML page, as Slack's edge does.
    const chat = await chatWith(fx.sandbox.url, { maxRetries: 1 });
    fx.sandbox.addFault({ method: 'users.list', status: 503, count: 2 });
    const before = fx.sandbox.requests.length;
    const error = await rejectionOf(chat.users.list());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.toJSON()).toEqual({ detail: 'Upstream request failed with status 503', error_code: 'upstream_http_503' });
    expect(fx.sandbox.requests.slice(before).filter((e) => e.method === 'users.list')).toHaveLength(2);
  });

  it('a 4xx without a code keeps its status and names it (upstream_http_431, upstream_http_413), unretried', async () => {
    const chat = await chatWith(upstream.url, { maxRetries: 1 }, slackTransient);
    for (const status of [431, 413]) {
      upstream.answer({ status, body: `<html><body>${status}</body></html>` });
      const error = await rejectionOf(chat.users.list());
      expect([error.status, error.toJSON()]).toEqual([
        status,
        { detail: `Upstream request failed with status ${status}`, error_code: `upstream_http_${status}` },
      ]);
      expect(upstream.hits).toHaveLength(1);
    }
  });
});
