/**
 * npm run bench:replicate: the chat connector replicates a Slack sandbox of 50,000 users, 5,000
 * channels and 40 messages per channel (over 200,000 messages with thread replies; the sandbox in a
 * child process) into a local SQLite context store, through the same replication the hosted server runs (HTTP to the sandbox,
 * pagination, the store's writes and indexes). Prints progress, then per entity counts; last line
 * `replication_records_per_s=<records stored per second>`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRuntime } from '../index.ts';
import { startChild, stopChildren } from './bench-support.ts';

const SIZES = { users: 50_000, channels: 5_000, messagesPerChannel: 40 };
const TOKEN = 'xoxb-bench-replicate';

console.log(`seeding a Slack sandbox: ${SIZES.users} users, ${SIZES.channels} channels, ${SIZES.messagesPerChannel} messages per channel...`);
// In its own process, as the real upstream is: its work is not replication's.
const sizes = Object.entries(SIZES).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
const sandbox = await startChild(['scripts/sandbox.ts', 'chat', '--port', '0', '--token', TOKEN, ...sizes], {}, /listening: (\S+)/);
const sandboxUrl = sandbox.match[1]!;
const dir = mkdtempSync(join(tmpdir(), 'plugboard-bench-replicate-'));
const runtime = await createRuntime();
const chat = runtime.connector('chat', { credentials: { token: TOKEN }, base_url: sandboxUrl, context_store: { path: join(dir, 'context.db') } });
try {
  const started = performance.now();
  const progress = setInterval(() => console.log(`  ${((performance.now() - started) / 1000).toFixed(0)} s...`), 10_000);
  const entities = await chat.replicate!({ start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: true }).finally(() =>
    clearInterval(progress),
  );
  const seconds = (performance.now() - started) / 1000;
  const records = Object.values(entities).reduce((sum, entity) => sum + entity.records, 0);
  for (const [entity, state] of Object.entries(entities)) console.log(`${entity.padEnd(18)} ${String(state.records).padStart(8)} records  ${state.status}`);
  console.log(`replicated ${records} records in ${seconds.toFixed(1)} s (target: >= 10000 records/s on SQLite)`);
  console.log(`replication_records_per_s=${Math.round(records / seconds)}`);
} finally {
  await chat.close!();
  stopChildren();
  rmSync(dir, { recursive: true, force: true });
}
