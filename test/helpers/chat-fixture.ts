import { createRuntime, type PlugboardError } from '../../core/index.ts';
import { SlackSandbox } from '../../connectors/chat/sandbox/index.ts';

export const CHAT_TOKEN = 'xoxb-test-secret-0001';

/** A Slack sandbox plus an in-process chat connector pointed at it. */
export async function startChatFixture(options: { users?: number; channels?: number; messagesPerChannel?: number } = {}) {
  const sandbox = await SlackSandbox.start({ token: CHAT_TOKEN, users: 30, channels: 8, messagesPerChannel: 25, ...options });
  const runtime = await createRuntime();
  const chat = runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: sandbox.url });
  return { sandbox, runtime, chat, plugin: runtime.plugin('chat') };
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
