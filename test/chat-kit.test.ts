/**
 * The chat connector passes the connector kit, on the Slack sandbox: examples, 422s, records against
 * their schemas for every action, pagination, and every declared Slack error code's mapping.
 */
import { afterAll, describe, it } from 'vitest';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import chat from '../connectors/chat/index.ts';
import { createRuntime } from '../index.ts';
import { connectorKit } from '../testing/index.ts';
import { type ChatFixture, memberChannel } from './helpers/chat-fixture.ts';

const TOKEN = 'xoxb-kit-secret-0001';

const kit = await connectorKit({
  connector: chat,
  upstream: async () => {
    const sandbox = await SlackSandbox.start({ token: TOKEN, users: 12, channels: 6, messagesPerChannel: 15 });
    return Object.assign({ baseUrl: sandbox.url, credentials: { token: TOKEN }, close: () => sandbox.close() }, { sandbox });
  },
  // Ids that exist once the sandbox is seeded: a channel the bot is in, a thread in it, a message of the bot's own, a user.
  calls: async (upstream) => {
    const { sandbox } = upstream as typeof upstream & { sandbox: SlackSandbox };
    const runtime = await createRuntime();
    const fx = { sandbox, chat: runtime.connector('chat', { credentials: upstream.credentials, base_url: upstream.baseUrl }) };
    const channel = await memberChannel(fx as ChatFixture);
    const messages = sandbox.data.messages.get(channel.id) ?? [];
    const parent = messages.find((message) => (message.reply_count ?? 0) > 0) ?? messages[0]!;
    const { result: own } = await fx.chat.messages.create({ channel: channel.id, text: 'Posted by the kit' });
    return {
      'channels.get': [{ channel: channel.id }],
      'channels.update': [{ channel: channel.id, name: `${channel.name}-renamed` }],
      'channel_messages.list': [{ channel: channel.id, limit: 5 }],
      'threads.list': [{ channel: channel.id, ts: parent.ts }],
      'messages.create': [{ channel: channel.id, text: 'Hello from the kit' }],
      'messages.update': [{ channel: channel.id, ts: own.ts, text: 'Edited by the kit' }],
      'channel_topics.create': [{ channel: channel.id, topic: 'Kit topic' }],
      'channel_purposes.create': [{ channel: channel.id, purpose: 'Kit purpose' }],
      'reactions.create': [{ channel: channel.id, timestamp: parent.ts, name: 'tada' }],
      'users.get': [{ user: sandbox.data.users[0]!.id }],
      'users.list': [{ limit: 5 }],
      'channels.list': [{ limit: 3 }],
    };
  },
});
afterAll(() => kit.close());

describe('the chat connector passes the connector kit', () => {
  for (const check of kit.checks) it(check.name, check.run);
});
