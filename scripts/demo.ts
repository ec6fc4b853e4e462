/**
 * The quick-start demo: starts the Slack sandbox on a free local port, then drives the chat connector
 * through the in-process API and prints what comes back. No external service is needed.
 */
import { createRuntime, PlugboardError } from '../index.ts';
import { startSandbox } from '../connectors/chat/sandbox/index.ts';

const token = 'xoxb-demo-token';
const sandbox = await startSandbox({ token, users: 40, channels: 12 });
try {
  const runtime = await createRuntime();
  const chat = runtime.connector('chat', { credentials: { token }, base_url: sandbox.url });
  console.log(`Plugboard demo: in-process chat connector against the Slack sandbox at ${sandbox.url}\n`);

  const users = await chat.users.list({ limit: 5 });
  console.log(`users.list (limit 5): ${users.result.map((u) => `${u.name} (${u.real_name})`).join(', ')}`);
  console.log(`  connector_metadata: ${JSON.stringify(users.connector_metadata)}, took ${users.execution_metadata.execution_time_ms} ms`);

  let everyone = 0;
  for await (const _user of chat.paginate({ entity: 'users', action: 'list', params: { limit: 15 } })) everyone += 1;
  console.log(`all users, 15 a page via paginate(): ${everyone}`);

  const channels = await chat.channels.list({ types: 'public_channel,private_channel', exclude_archived: true, limit: 100 });
  console.log(
    `channels.list: ${channels.result.length} channels: ${channels.result
      .slice(0, 6)
      .map((c) => `#${c.name}`)
      .join(', ')}, ...`,
  );

  const created = await chat.channels.create({ name: `demo-${Date.now().toString(36)}` });
  const channel = created.result.id;
  console.log(`channels.create: #${created.result.name} (${channel})`);
  await chat.channel_topics.create({ channel, topic: 'Where the demo happens' });
  const renamed = await chat.channels.update({ channel, name: `${created.result.name}-renamed` });
  console.log(`channels.update: renamed to #${renamed.result.name}`);

  const posted = await chat.messages.create({ channel, text: 'Hello from *Plugboard*' });
  console.log(`messages.create: ts ${posted.result.ts}: "${posted.result.text}"`);
  await chat.messages.create({ channel, text: 'a reply in the thread', thread_ts: posted.result.ts });
  await chat.messages.update({ channel, ts: posted.result.ts, text: 'Hello from *Plugboard* (edited)' });
  await chat.reactions.create({ channel, timestamp: posted.result.ts, name: 'tada' });

  const history = await chat.channel_messages.list({ channel, limit: 10 });
  const top = history.result[0]!;
  console.log(`channel_messages.list: "${top.text}" with ${top.reply_count} reply, reactions ${JSON.stringify(top.reactions)}`);
  const thread = await chat.threads.list({ channel, ts: posted.result.ts });
  console.log(`threads.list: ${thread.result.map((m) => `"${m.text}"`).join(' -> ')}, has_more=${thread.connector_metadata.has_more}`);

  for (const attempt of [
    () => chat.channels.create({ name: 'Not Valid' }),
    () => chat.channels.get({ channel: 'C0NOPE' }),
    () => chat.users.search({ query: { filter: { eq: { is_admin: true } } } }),
  ]) {
    try {
      await attempt();
    } catch (error) {
      if (!(error instanceof PlugboardError)) throw error;
      console.log(`error ${error.status}: ${JSON.stringify(error.toJSON())}`);
    }
  }
} finally {
  await sandbox.close();
}
