/**
 * npm run bench:search-flood: whether expensive searches starve the server. A Plugboard server (SQLite,
 * child process) replicates a chat sandbox of SIZES; then CONCURRENCY loops send one costly search
 * over messages for SECONDS while another loop times `GET /healthz`, one call at a time. Prints the
 * search answers' statuses and latencies, and `/healthz`'s median, p95 and max.
 *
 * `--query NAME` picks the search: `allowed` (default: the most expensive search the limits let
 * through: an `or` of 8 `like`s checked on every message, most of which match, sorted by 4 keys), `sort-1000` (1,000 sort
 * keys) or `likes-100` (an `or` of 100 `like`s), the worst queries before the limits.
 * `--seconds N` sets the flood's length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import got from 'got';
import { quantile, startChild, stopChildren, timed } from './bench-support.ts';

/** About 28,500 messages and 19,500 thread replies: a `like` over messages reads them all. */
const SIZES = { users: 2000, channels: 60, messagesPerChannel: 500 };
const TOKEN = 'xoxb-bench-search-flood';
const CONCURRENCY = 8;
/** Between two `/healthz` calls: often enough to catch a stall, seldom enough not to load the server itself. */
const HEALTH_INTERVAL_MS = 20;

/** Patterns no message holds: every `like` is checked on every message. */
const missing = (index: number) => `%zq${index}x%`;
const QUERIES = {
  allowed: {
    // Seven patterns checked on every message in vain, the eighth matching most: most messages are sorted by four keys.
    filter: { or: [...Array.from({ length: 7 }, (_, index) => ({ like: { text: missing(index) } })), { like: { text: '%e%' } }] },
    sort: [{ text: 'desc' }, { user: 'asc' }, { ts: 'desc' }, { type: 'asc' }],
  },
  'sort-1000': { sort: Array.from({ length: 1000 }, (_, index) => ({ [['text', 'user', 'ts', 'type'][index % 4]!]: index % 2 ? 'asc' : 'desc' })) },
  'likes-100': { filter: { or: Array.from({ length: 100 }, (_, index) => ({ like: { text: missing(index) } })) } },
} as const;

const { values: args } = parseArgs({ options: { query: { type: 'string', default: 'allowed' }, seconds: { type: 'string', default: '20' } } });
const query = QUERIES[args.query as keyof typeof QUERIES];
if (!query) throw new Error(`--query is one of ${Object.keys(QUERIES).join(', ')}`);
const seconds = Number(args.seconds);

const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-bench-flood-'));
try {
  console.log(`seeding a Slack sandbox: ${SIZES.users} users, ${SIZES.channels} channels, ${SIZES.messagesPerChannel} messages per channel...`);
  const sizes = Object.entries(SIZES).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
  const sandbox = await startChild(['scripts/sandbox.ts', 'chat', '--port', '0', '--token', TOKEN, ...sizes], {}, /listening: (\S+)/);
  const server = await startChild(
    ['server/main.ts'],
    { PORT: '0', PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_CHAT_BASE_URL: sandbox.match[1]!, LOG_LEVEL: 'warn' },
    /listening on (\S+)/,
  );
  const credentials = JSON.parse(server.lines.find((line) => line.startsWith('{'))!) as { client_id: string; client_secret: string };
  const http = got.extend({ prefixUrl: server.match[1]!, throwHttpErrors: false, retry: { limit: 0 } });
  const operator = await http.post('api/v1/account/applications/token', { json: credentials }).json<{ access_token: string }>();
  const scoped = await http
    .post('api/v1/embedded/scoped-token', { headers: { authorization: `Bearer ${operator.access_token}` }, json: { workspace_name: 'bench-user' } })
    .json<{ token: string }>();
  const headers = { authorization: `Bearer ${scoped.token}` };
  const created = await http.post('v1/integrations/connectors', {
    headers,
    json: {
      external_user_id: 'bench-user',
      connector_type: 'chat',
      credentials: { token: TOKEN },
      replication_config: { start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: true },
    },
  });
  if (created.statusCode !== 201) throw new Error(`creating the connector: ${created.statusCode} ${created.body}`);
  const connector = JSON.parse(created.body) as { id: string };

  console.log('replicating...');
  for (;;) {
    const state = await http.get(`api/v1/connectors/sources/${connector.id}/replication`, { headers }).json<ReplicationState>();
    if (state.status === 'failed') throw new Error(`replication failed: ${state.error}`);
    if (state.status === 'ready') {
      console.log(
        Object.entries(state.entities)
          .map(([entity, { records }]) => `${entity} ${records}`)
          .join(', '),
      );
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const search = () =>
    http.post(`api/v1/connectors/sources/${connector.id}/execute`, {
      headers,
      json: { entity: 'channel_messages', action: 'search', params: { query, limit: 1000 } },
    });
  const alone = await timed(search);
  const first = await search();
  console.log(`--query ${args.query}: alone ${alone.toFixed(0)} ms, answers ${first.statusCode} ${first.body.slice(0, 240)}`);

  console.log(`flooding: ${CONCURRENCY} concurrent searches for ${seconds} s, timing GET /healthz meanwhile...`);
  const deadline = performance.now() + seconds * 1000;
  const statuses = new Map<string, number>();
  let healthFailures = 0;
  const searchMs: number[] = [];
  const healthMs: number[] = [];
  const flood = Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      // A server starved long enough drops connections (its request timeout): counted, not fatal.
      const status = await search().then(
        (answer) => String(answer.statusCode),
        (error: Error & { code?: string }) => error.code ?? 'error',
      );
      searchMs.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  const health = (async () => {
    while (performance.now() < deadline) {
      healthMs.push(await timed(() => http.get('healthz').catch(() => (healthFailures += 1))));
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  })();
  await Promise.all([...flood, health]);

  const figures = (values: number[]) =>
    `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
  console.log(
    `searches: ${searchMs.length} in ${seconds} s (${(searchMs.length / seconds).toFixed(1)}/s), statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(`search latency: ${figures(searchMs)}`);
  console.log(`/healthz under the flood (${healthMs.length} calls, ${healthFailures} failed): ${figures(healthMs)} (target: under 50 ms)`);
} finally {
  stopChildren();
  rmSync(dataDir, { recursive: true, force: true });
}

interface ReplicationState {
  status: 'pending' | 'loading' | 'ready' | 'failed';
  error: string | null;
  entities: Record<string, { records: number }>;
}
