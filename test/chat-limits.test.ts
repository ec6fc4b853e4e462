import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../core/index.ts';
import { issuesOf, memberChannel, rejectionOf, startChatFixture } from './helpers/chat-fixture.ts';

/**
 * The param schemas' limits where they meet Unicode and Slack's own rules: the connector's 422 and the sandbox's
 * answer must agree, so a value the schema lets through is one Slack accepts.
 */
let fx: Awaited<ReturnType<typeof startChatFixture>>;

beforeAll(async () => {
  fx = await startChatFixture();
});
afterAll(async () => {
  await fx.sandbox.close();
});

describe('chat limits beyond ASCII', () => {
  it('channel names: upper case in any script is refused before Slack; lowercase of any script is created', async () => {
    for (const name of ['ΣΑΣ', 'Ünicode', 'ÀÉ', 'dž-titlecase'.replace('dž', 'ǅ'), 'two words', 'tab\there']) {
      const [issue] = await issuesOf(fx.chat.channels.create({ name }));
      expect(issue).toMatchObject({ loc: ['body', 'params', 'name'], msg: expect.stringMatching(/lowercase, without spaces/) });
    }
    const created = await fx.chat.channels.create({ name: 'équipe-café' });
    expect(created.result.name).toBe('équipe-café');
    const japanese = await fx.chat.channels.create({ name: '開発チーム' });
    expect(japanese.result.name).toBe('開発チーム');
    // 80 characters, some outside the BMP: the limit counts characters, in the schema and in Slack.
    const long = `${'😀'.repeat(40)}${'x'.repeat(40)}`;
    await issuesOf(fx.chat.channels.create({ name: `${long}y` }));
    const punctuation = await rejectionOf(fx.chat.channels.create({ name: 'release.notes' }));
    expect(punctuation).toBeInstanceOf(BadRequestError);
    expect(punctuation.error_code).toBe('invalid_name_specials');
  });

  it('topic and purpose count characters: 250 emoji pass, 251 are refused with 422', async () => {
    const channel = (await memberChannel(fx)).id;
    const topic = '🎉'.repeat(250);
    const set = await fx.chat.channel_topics.create({ channel, topic });
    expect((set.result.topic as { value: string }).value).toBe(topic);
    const purpose = await fx.chat.channel_purposes.create({ channel, purpose: 'ü'.repeat(250) });
    expect((purpose.result.purpose as { value: string }).value).toHaveLength(250);
    const [issue] = await issuesOf(fx.chat.channel_topics.create({ channel, topic: `${topic}!` }));
    expect(issue).toMatchObject({ loc: ['body', 'params', 'topic'], type: 'value_error.any_str.max_length' });
  });

  it('message text: at most 40,000 characters, as Slack', async () => {
    const channel = (await memberChannel(fx)).id;
    const [issue] = await issuesOf(fx.chat.messages.create({ channel, text: 'a'.repeat(40_001) }));
    expect(issue).toMatchObject({ loc: ['body', 'params', 'text'] });
    const posted = await fx.chat.messages.create({ channel, text: '€'.repeat(40_000) });
    const [updateIssue] = await issuesOf(fx.chat.messages.update({ channel, ts: posted.result.ts, text: 'b'.repeat(40_001) }));
    expect(updateIssue).toMatchObject({ loc: ['body', 'params', 'text'] });
  });

  it('threads.list accepts limit 1000, Slack’s ceiling for replies', async () => {
    const channel = (await memberChannel(fx)).id;
    const posted = await fx.chat.messages.create({ channel, text: 'parent' });
    const thread = await fx.chat.threads.list({ channel, ts: posted.result.ts, limit: 1000 });
    expect(thread.result.map((m) => m.ts)).toEqual([posted.result.ts]);
    await issuesOf(fx.chat.threads.list({ channel, ts: posted.result.ts, limit: 1001 }));
  });

  it('a public channel the bot has not joined cannot be read (not_in_channel), as with a Slack bot token', async () => {
    const { result } = await fx.chat.channels.list({ limit: 1000, types: 'public_channel' });
    const outside = result.find((c) => !c.is_member);
    expect(outside, 'the seed has public channels the bot is not in').toBeDefined();
    const error = await rejectionOf(fx.chat.channel_messages.list({ channel: outside!.id }));
    expect([error.status, error.error_code]).toEqual([400, 'not_in_channel']);
    expect((await rejectionOf(fx.chat.threads.list({ channel: outside!.id, ts: '1700000000.000100' }))).error_code).toBe('not_in_channel');
  });

  it('search says "hosted mode only" in-process, whatever the params', async () => {
    // Untyped on purpose: wrong or missing params must not hide the real reason.
    const untyped = fx.runtime.connector('chat', { credentials: { token: 'xoxb-any' }, base_url: fx.sandbox.url });
    for (const params of [undefined, {}, { query: {} }, { limit: 'x' }]) {
      const error = await rejectionOf(untyped.execute({ entity: 'users', action: 'search', ...(params ? { params } : {}) } as never));
      expect([error.status, error.error_code]).toEqual([400, 'hosted_mode_only']);
    }
  });
});
