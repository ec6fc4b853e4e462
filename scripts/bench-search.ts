/**
 * npm run bench:search: a context store seeded with about 1,000,000 chat records (users, channels,
 * messages: the Slack sandbox's realistic generated workspace), then a fixed query mix, each kind run
 * repeatedly with values drawn from the data. Prints p50/p95/p99 per kind and backend (see benchBackends:
 * `-- --backend postgres` for PostgreSQL alone), then the worst p95 of each: `postgres_search_p95_ms_max=<n>`
 * and, last, `search_p95_ms_max=<n>` (SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import type { SandboxStore } from '../connectors/chat/sandbox/store.ts';
import { channelToWire, messageToWire, userToWire } from '../connectors/chat/sandbox/wire.ts';
import type { ContextStore } from '../core/hosted/context-store/context-store.ts';
import { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { PlannerSettings } from '../core/hosted/context-store/postgres-plan-settings.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import type { SqlContextStore } from '../core/hosted/context-store/sql-context-store.ts';
import type { SqlValue } from '../core/stores/sql-driver.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import type { StoredRecord } from '../core/sdk/index.ts';
import { SeededRandom } from '../testing/seeded-random.ts';
import { quantile } from './bench-support.ts';

const SIZES = { users: 100_000, channels: 10_000, messagesPerChannel: 90 };
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CONNECTOR = 'bench-connector';
/** Far past the server's default: a slow kind is measured, not failed (which would end the run). */
const SEARCH_BUDGET_MS = 60_000;

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

/**
 * Writes the workspace in batches of 10,000 records, `writers` batches at a time (each entity marked
 * ready once its last batch is in), then what the end of a replication run does. PostgreSQL runs each
 * writer in a backend of its own: two keep a small machine's cores busy and the load within minutes.
 */
async function seed(store: ContextStore, writers: number): Promise<void> {
  for (const catalogOf of catalogs.values()) await store.prepare(catalogOf);
  const entities = [
    ['users', users],
    ['channels', workspace.channels],
    ['channel_messages', workspace.messages],
  ] as const;
  const batches = entities.flatMap(([entity, records]) =>
    Array.from({ length: Math.ceil(records.length / 10_000) }, (_, i) => ({ entity, records: records.slice(i * 10_000, (i + 1) * 10_000) })),
  );
  const left = new Map(entities.map(([entity]) => [entity, batches.filter((batch) => batch.entity === entity).length]));
  const total = batches.reduce((sum, batch) => sum + batch.records.length, 0);
  const started = performance.now();
  let written = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        await store.write(CONNECTOR, catalog(batch.entity), batch.records);
        written += batch.records.length;
        process.stdout.write(`\r  ${written}/${total} records written (${batch.entity})      `);
        left.set(batch.entity, left.get(batch.entity)! - 1);
        if (left.get(batch.entity) === 0) await store.setEntityState(CONNECTOR, batch.entity, 'ready', new Date());
      }
    }),
  );
  console.log(`\r  ${total} records written in ${seconds(started)} s by ${writers} writer(s)                    `);
  const optimizing = performance.now();
  await store.optimize();
  console.log(`  optimize() (what the end of a replication run does) took ${seconds(optimizing)} s`);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
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

/**
 * Which stores to measure: `--backend sqlite|postgres|both`. PostgreSQL needs TEST_DATABASE_URL or
 * PLUGBOARD_DATABASE_URL (the bench creates a schema of its own there and drops it at the end).
 * Without the flag: SQLite, and PostgreSQL too when a database URL is set. `--explain`: after the
 * measures, PostgreSQL's EXPLAIN (ANALYZE, BUFFERS) of one search of each kind, as the store runs it.
 */
function benchBackends(): { sqlite: boolean; postgres: string | undefined; explain: boolean } {
  const { values } = parseArgs({ options: { backend: { type: 'string' }, explain: { type: 'boolean', default: false } } });
  const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.PLUGBOARD_DATABASE_URL;
  const backend = values.backend ?? (databaseUrl ? 'both' : 'sqlite');
  if (!['sqlite', 'postgres', 'both'].includes(backend)) throw new Error(`--backend ${backend}: expected sqlite, postgres or both`);
  if (backend !== 'sqlite' && !databaseUrl) throw new Error(`--backend ${backend} needs TEST_DATABASE_URL or PLUGBOARD_DATABASE_URL`);
  return { sqlite: backend !== 'postgres', postgres: backend === 'sqlite' ? undefined : databaseUrl, explain: values.explain };
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

/**
 * PostgreSQL's EXPLAIN ANALYZE of one search of each kind: the page statement the store runs, with
 * its planner settings, caught on its way to the store's reader.
 */
async function explainEach(store: SqlContextStore): Promise<void> {
  const mix = queryMix(SeededRandom.derive(42, 'bench-search'));
  for (const [kind, next] of Object.entries(mix)) {
    const { entity, params } = next();
    const all = store.reader.all.bind(store.reader);
    let caught: { sql: string; params: SqlValue[]; settings: PlannerSettings } | undefined;
    store.reader.all = (sql, params, budget, settings = {}) => {
      if (sql.includes('FROM context_records r')) caught = { sql, params, settings };
      return all(sql, params, budget, settings);
    };
    await store.search(CONNECTOR, catalog(entity), planSearch(catalog(entity), params));
    store.reader.all = all;
    if (!caught) continue;
    const { sql, params: values, settings } = caught;
    const plan = await store.driver.transaction(async (tx) => {
      for (const [name, value] of Object.entries(settings)) await tx.exec(`SET LOCAL ${name} = ${value}`);
      return tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
    });
    console.log(`\n-- ${kind}: ${JSON.stringify(params)}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
}

const backends = benchBackends();
const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-bench-search-'));
const schema = `bench_search_${process.pid}`;
const admin = backends.postgres ? new pg.Client({ connectionString: backends.postgres }) : undefined;
const stores: { label: string; store: ContextStore }[] = [];
const worst: { sqlite?: number; postgres?: number } = {};
try {
  if (backends.sqlite) {
    console.log('\nSQLite: seeding');
    stores.push({ label: 'SQLite', store: await createContextStore({ dataDir, file: join(dataDir, 'context.db'), searchBudgetMs: SEARCH_BUDGET_MS }) });
    await seed(stores.at(-1)!.store, 1);
  }
  if (backends.postgres && admin) {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    console.log(`\nPostgreSQL: seeding (schema ${schema})`);
    stores.push({ label: 'PostgreSQL', store: await createContextStore({ databaseUrl: backends.postgres, schema, searchBudgetMs: SEARCH_BUDGET_MS }) });
    await seed(stores.at(-1)!.store, 2);
  }
  // The seeded records leave memory before measuring: a server holds none, and collecting them would stall the queries.
  workspace.channels = [];
  workspace.messages = [];
  globalThis.gc?.();
  for (const { label, store } of stores) worst[label === 'SQLite' ? 'sqlite' : 'postgres'] = await measure(store, label);
  const postgresStore = stores.find(({ label }) => label === 'PostgreSQL')?.store;
  if (backends.explain && postgresStore) await explainEach(postgresStore as SqlContextStore);
} finally {
  for (const { store } of stores) await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (admin && backends.postgres) {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
console.log('\ntarget: p95 <= 50 ms for every kind, on each backend');
if (worst.postgres !== undefined) console.log(`postgres_search_p95_ms_max=${worst.postgres.toFixed(2)}`);
if (worst.sqlite !== undefined) console.log(`search_p95_ms_max=${worst.sqlite.toFixed(2)}`);
