/**
 * Runs the Slack sandbox as its own process, e.g.
 *   npx tsx connectors/chat/sandbox/cli.ts --token xoxb-local --port 4010 --users 200
 * Prints one JSON line {url, botUserId} once listening; faults can then be injected with
 * POST /_sandbox/faults. Stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './index.ts';

const { values } = parseArgs({
  options: {
    token: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    users: { type: 'string' },
    channels: { type: 'string' },
    messages: { type: 'string' },
  },
});

function int(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) {
    console.error(`--${name} must be a non-negative integer`);
    process.exit(2);
  }
  return Number(raw);
}

const token = values.token ?? process.env.SLACK_SANDBOX_TOKEN;
if (!token) {
  console.error('usage: cli.ts --token <token> [--port N] [--host H] [--seed N] [--users N] [--channels N] [--messages N]');
  process.exit(2);
}

const sandbox = await startSandbox({
  token,
  port: int('port', values.port),
  host: values.host,
  seed: int('seed', values.seed),
  users: int('users', values.users),
  channels: int('channels', values.channels),
  messagesPerChannel: int('messages', values.messages),
});
console.log(JSON.stringify({ url: sandbox.url, botUserId: sandbox.botUserId }));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
