import { expect } from 'vitest';
import { createRuntime, ValidationError, type PlugboardError, type ValidationIssue } from '../../index.ts';
import { SlackSandbox } from '../../connectors/chat/sandbox/index.ts';

export const CHAT_TOKEN = 'xoxb-test-secret-0001';

/** A public cloud API `slack` source on the sandbox's token, from the start of its data, no look-back. */
export const slackSourceConfiguration = () => ({
  sourceType: 'slack',
  credentials: { option_title: 'API Token Credentials', api_token: CHAT_TOKEN },
  start_date: '2000-01-01T00:00:00Z',
  lookback_window: 0,
  join_channels: false,
});

/** A Slack sandbox plus an in-process chat connector pointed at it. */
export async function startChatFixture(options: { users?: number; channels?: number; messagesPerChannel?: number } = {}) {
  const sandbox = await SlackSandbox.start({ token: CHAT_TOKEN, users: 30, channels: 8, messagesPerChannel: 25, ...options });
  const runtime = await createRuntime();
  const chat = runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: sandbox.url });
  return { sandbox, runtime, chat, plugin: runtime.plugin('chat') };
}

export type ChatFixture = Awaited<ReturnType<typeof startChatFixture>>;

/** The busiest public channel the bot belongs to (ordinary, not #general), so every scenario has data. */
export async function memberChannel(fx: ChatFixture) {
  const { result } = await fx.chat.channels.list({ limit: 1000, exclude_archived: true });
  const size = (id: string) => fx.sandbox.data.messages.get(id)?.length ?? 0;
  const channel = result.filter((c) => c.is_member && !c.is_general).sort((a, b) => size(b.id) - size(a.id))[0];
  if (!channel) throw new Error('no channel the bot is a member of');
  return channel;
}

/** Awaits a promise that must reject, and returns the error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<PlugboardError> {
  try {
    await promise;
  } catch (error) {
    return error as PlugboardError;
  }
  throw new Error('expected the call to fail');
}

/** Awaits a promise that must reject with a ValidationError (422), and returns its issues. */
export async function issuesOf(promise: Promise<unknown>): Promise<ValidationIssue[]> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.status).toBe(422);
  return (error as ValidationError).issues;
}
