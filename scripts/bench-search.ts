/**
 * npm run bench:search: a context store seeded with about 1,000,000 chat records (users, channels,
 * messages: the Slack sandbox's realistic generated workspace), then a fixed query mix, each kind run
 * repeatedly with values drawn from the data. Prints p50/p95/p99 per kind and backend (SQLite; also
 * PostgreSQL when TEST_DATABASE_URL is set); last line `search_p95_ms_max=<worst p95 on SQLite>`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import type { SandboxStore } from '../connectors/chat/sandbox/store.ts';
import { channelToWire, messageToWire, userToWire } from '../connectors/chat/sandbox/wire.ts';
import type { ContextStore } from '../core/hosted/context-store/context-store.ts';
import { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import type { StoredRecord } from '../core/sdk/index.ts';
import { SeededRandom } from '../testing/seeded-random.ts';
import { quantile } from './bench-support.ts';

const SIZES = { users: 100_000, channels: 10_000, messagesPerChannel: 90 };
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CONNECTOR = 'bench-connector';

const runtime = new Runtime();
for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
const catalogs = runtime.plugin('chat').searchCatalogs();
const catalog = (entity: string) => catalogs.get(entity)!;

console.log(`seeding a workspace of ${SIZES.users} users, ${SIZES.channels} channels, ${SIZES.messagesPerChannel} messages per channel...`);
/** The sandbox's generated workspace as records; the sandbox (and its copy of the data) is gone after. */
async function generateWorkspace(): Promise<Record<'users' | 'channels' | 'messages', StoredRecord[]>> {
  const sandbox = await SlackSandbox.start({ token: 'xoxb-bench', ...SIZES, recordRequests: false });
  const data = sandbox.data as SandboxStore;
  try {
    return {
      users: data.users.map((user) => userToWire(user, false) as StoredRecord),
      channels: data.channels.map((channel) => channelToWire(data, channel, { numMembers: true }) as StoredRecord),
      messages: data.channels.flatMap((channel) =>
        data.conversation(channel.id).timeline.map((message) => ({ ...messageToWire(data, message), channel_id: channel.id }) as StoredRecord),
      ),
    };
  } finally {
    await sandbox.close();
  }
}
const workspace = await generateWorkspace();
const { users } = workspace;
// Words of real messages, for the keyword queries.
const messageWords = workspace.messages.slice(0, 5000).flatMap((message) =>
  String(message.text ?? '')
    .split(/\W+/)
    .filter((word) => word.length > 5),
);
console.log(`records: ${users.length} users, ${workspace.channels.length} channels, ${workspace.messages.length} messages`);

async function seed(store: ContextStore): Promise<void> {
  for (const catalogOf of catalogs.values()) await store.prepare(catalogOf);
  for (const [entity, records] of [
    ['users', users],
    ['channels', workspace.channels],
    ['channel_messages', workspace.messages],
  ] as const) {
    const started = performance.now();
    for (let start = 0; start < records.length; start += 10_000) {
      await store.write(CONNECTOR, catalog(entity), records.slice(start, start + 10_000));
      process.stdout.write(`\r  ${entity}: ${Math.min(start + 10_000, records.length)}/${records.length}`);
    }
    await store.setEntityState(CONNECTOR, entity, 'ready', new Date());
    console.log(`\r  ${entity}: ${records.length} written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // What the end of a replication run does.
  await store.optimize();
}

/** The query mix: each kind a function of a seeded random draw, so every run asks something different but comparable. */
function queryMix(random: SeededRandom): Record<string, () => { entity: string; params: Record<string, unknown>; page2?: true }> {
  const pick = <T>(items: T[]): T => items[random.int(0, items.length - 1)]!;
  const humans = users.filter((user) => !user.is_bot && typeof user.real_name === 'string' && /\w{4}/.test(String(user.real_name)));
  const typo = (word: string) => {
    const i = random.int(1, word.length - 2);
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  };
  const zones = [...new Set(users.map((user) => user.tz).filter((tz) => typeof tz === 'string'))] as string[];
  const updated = users.map((user) => Number(user.updated)).sort((a, b) => a - b);
  return {
    id_eq: () => ({ entity: 'users', params: { query: { filter: { eq: { id: pick(users).id } } } } }),
    bool_eq_sorted: () => ({ entity: 'users', params: { query: { filter: { eq: { is_bot: false } }, sort: [{ updated: 'desc' }] }, limit: 50 } }),
    like_name: () => {
      const name = String(pick(humans).name);
      const start = random.int(0, Math.max(0, name.length - 4));
      return { entity: 'users', params: { query: { filter: { like: { name: name.slice(start, start + 4) } } }, limit: 50 } };
    },
    fuzzy_typo: () => {
      const word =
        String(pick(humans).real_name)
          .split(' ')
          .find((part) => part.length >= 4) ?? 'anna';
      return { entity: 'users', params: { query: { filter: { fuzzy: { real_name: typo(word) } } }, limit: 50 } };
    },
    keyword_text: () => ({ entity: 'channel_messages', params: { query: { filter: { keyword: { text: pick(messageWords) } } }, limit: 50 } }),
    range_updated: () => {
      const from = updated[random.int(0, updated.length - 1000)]!;
      return { entity: 'users', params: { query: { filter: { gte: { updated: from }, lt: { updated: from + 86_400 } } }, limit: 50 } };
    },
    in_tz: () => ({ entity: 'users', params: { query: { filter: { in: { tz: [pick(zones), pick(zones), pick(zones)] } } }, limit: 50 } }),
    email_eq: () => ({
      entity: 'users',
      params: { query: { filter: { eq: { 'profile.email': String((pick(humans).profile as { email?: string }).email) } } } },
    }),
    nested_and_or_not: () => ({
      entity: 'users',
      params: {
        query: {
          filter: {
            and: [{ or: [{ eq: { tz: pick(zones) } }, { eq: { is_admin: true } }] }, { not: { eq: { deleted: true } } }, { gte: { tz_offset: -18_000 } }],
          },
        },
        limit: 50,
      },
    }),
    second_page: () => ({ entity: 'users', params: { query: { filter: { eq: { deleted: false } }, sort: [{ name: 'asc' }] }, limit: 50 }, page2: true }),
  };
}

async function measure(store: ContextStore, label: string): Promise<number> {
  const mix = queryMix(SeededRandom.derive(42, 'bench-search'));
  const search = (entity: string, params: Record<string, unknown>) => store.search(CONNECTOR, catalog(entity), planSearch(catalog(entity), params));
  let worst = 0;
  console.log(`\n${label}: ${RUNS} runs per kind (limit 50 unless noted; medians of one run each)`);
  console.log('kind                 p50_ms   p95_ms   p99_ms   hits(first run)');
  for (const [kind, next] of Object.entries(mix)) {
    const times: number[] = [];
    let firstHits = -1;
    for (let run = 0; run < RUNS; run++) {
      const { entity, params, page2 } = next();
      let cursor: string | undefined;
      if (page2) cursor = (await search(entity, params)).next_cursor ?? undefined;
      const started = performance.now();
      const page = await search(entity, cursor ? { ...params, cursor } : params);
      times.push(performance.now() - started);
      if (firstHits < 0) firstHits = page.hits.length;
    }
    times.sort((a, b) => a - b);
    const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(times, q));
    worst = Math.max(worst, p95!);
    console.log(`${kind.padEnd(20)} ${p50!.toFixed(2).padStart(7)}  ${p95!.toFixed(2).padStart(7)}  ${p99!.toFixed(2).padStart(7)}   ${firstHits}`);
  }
  return worst;
}

const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-bench-search-'));
const databaseUrl = process.env.TEST_DATABASE_URL;
const schema = `bench_search_${process.pid}`;
const admin = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
const stores: { label: string; store: ContextStore }[] = [];
let sqliteWorst = 0;
try {
  console.log('\nSQLite: seeding');
  stores.push({ label: 'SQLite', store: await createContextStore({ dataDir, file: join(dataDir, 'context.db') }) });
  await seed(stores[0]!.store);
  if (databaseUrl && admin) {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    console.log('\nPostgreSQL: seeding');
    stores.push({ label: 'PostgreSQL', store: await createContextStore({ databaseUrl, schema }) });
    await seed(stores[1]!.store);
  }
  // The seeded records leave memory before measuring: a server holds none, and collecting them would stall the queries.
  workspace.channels = [];
  workspace.messages = [];
  globalThis.gc?.();
  sqliteWorst = await measure(stores[0]!.store, 'SQLite');
  if (stores[1]) console.log(`postgres_search_p95_ms_max=${(await measure(stores[1].store, 'PostgreSQL')).toFixed(2)}`);
} finally {
  for (const { store } of stores) await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (admin && databaseUrl) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
console.log(`\ntarget on SQLite: p95 <= 50 ms for every kind`);
console.log(`search_p95_ms_max=${sqliteWorst.toFixed(2)}`);
