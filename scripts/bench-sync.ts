/**
 * npm run bench:sync: a connection syncs a Slack sandbox of over 1,000,000 records (users and channel
 * messages; the sandbox in a child process, as the real upstream is) into SQLite, and into PostgreSQL
 * when TEST_DATABASE_URL is set, through the same job worker the server runs. The floor is reading the
 * same streams through the same reader without writing. Reads and SQLite syncs alternate for
 * BENCH_ROUNDS rounds (default 3; the machine is shared and noisy), and the medians are compared.
 * Prints progress, every rate, peak RSS; last lines `sync_over_read=<median sync rate / median read
 * rate>` (SQLite) and `sync_records_per_s=<median SQLite sync rate>`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createRuntime } from '../index.ts';
import type { ExecuteRequest, ExecuteResult } from '../core/execution/types.ts';
import { createDestination } from '../core/hosted/sync/destinations/create-destination.ts';
import { postgresConfigurationFromUrl } from '../core/hosted/sync/destinations/postgres-connection.ts';
import { migrateSync } from '../core/hosted/sync/migrate-sync.ts';
import { readStream } from '../core/hosted/sync/read-stream.ts';
import { SyncJobs } from '../core/hosted/sync/sync-jobs.ts';
import { SyncStates } from '../core/hosted/sync/sync-states.ts';
import { findSyncStream } from '../core/hosted/sync/sync-streams.ts';
import type { SelectedStream, SyncTarget } from '../core/hosted/sync/sync-target.ts';
import { SyncWorker } from '../core/hosted/sync/sync-worker.ts';
import { DeploymentUpstreams } from '../core/hosted/deployment-upstreams.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';
import { startChild, stopChildren } from './bench-support.ts';

const SIZES = { users: 120_000, channels: 1_000, messagesPerChannel: 1_100 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'xoxb-bench-sync';
const STREAMS: SelectedStream[] = [
  { name: 'users', syncMode: 'full_refresh_overwrite' },
  { name: 'channel_messages', syncMode: 'full_refresh_overwrite' },
];

console.log(`seeding a Slack sandbox: ${SIZES.users} users, ${SIZES.channels} channels, ${SIZES.messagesPerChannel} messages per channel...`);
const sizes = Object.entries(SIZES).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
const sandbox = await startChild(['scripts/sandbox.ts', 'chat', '--port', '0', '--token', TOKEN, ...sizes], {}, /listening: (\S+)/);
const baseUrl = sandbox.match[1]!;
const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-bench-sync-'));
const runtime = await createRuntime();
const connector = runtime.plugin('chat');
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 200);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Seconds and records of a run, with a progress line every 10 s. */
async function timed(label: string, run: (count: (n: number) => void) => Promise<void>): Promise<{ records: number; seconds: number }> {
  let records = 0;
  const started = performance.now();
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const progress = setInterval(
    () => console.log(`  ${label}: ${records} records, ${((performance.now() - started) / 1000).toFixed(0)} s, rss ${mb(process.memoryUsage.rss())}`),
    10_000,
  );
  try {
    await run((n) => {
      records += n;
    });
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1000;
  // Where the time went: how busy the event loop was, and how many cores this process used (its threads together).
  const loop = performance.eventLoopUtilization(loopBefore).utilization;
  const cpu = process.cpuUsage(cpuBefore);
  const cores = (cpu.user + cpu.system) / 1e6 / seconds;
  console.log(
    `${label}: ${records} records in ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s (event loop ${(loop * 100).toFixed(0)}% busy, ${cores.toFixed(2)} cores)`,
  );
  return { records, seconds };
}

/** The floor: the streams read through the sync's reader (same pages, same parents), nothing written. */
async function readOnly() {
  const instance = runtime.instance('chat', { credentials: { token: TOKEN }, base_url: baseUrl });
  const source = { connector, execute: (request: ExecuteRequest) => instance.execute(request) as Promise<ExecuteResult>, settings: {} };
  return timed('read (floor)', async (count) => {
    for (const stream of STREAMS)
      for await (const item of readStream(source, findSyncStream(connector, stream.name)!)) if ('records' in item) count(item.records.length);
  });
}

/** A sync job through the worker, into the destination; counted as the job reports rows written. */
async function sync(label: string, destination: SyncTarget['destination'], round: number) {
  const driver = new SqliteDriver(dataDir, join(dataDir, `jobs-${destination.destinationType}-${round}.db`));
  await migrateSync(driver);
  const jobs = new SyncJobs(driver);
  const target: SyncTarget = {
    connectionId: '00000000-0000-4000-8000-000000000001',
    workspaceId: '00000000-0000-4000-8000-000000000002',
    prefix: 'bench_',
    streams: STREAMS,
    source: { sourceId: 'bench', connectorType: 'chat', credentials: { token: TOKEN }, settings: {} },
    destination,
  };
  const worker = new SyncWorker({
    jobs,
    states: new SyncStates(driver),
    runtime,
    upstreams: new DeploymentUpstreams({ chat: baseUrl }),
    openDestination: (given) => createDestination(given.destinationType, given.configuration, { dataDir }),
    target: async () => target,
    pollMs: 50,
  });
  try {
    return await timed(label, async (count) => {
      const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
      worker.start();
      let seen = 0;
      for (;;) {
        const now = (await jobs.get(job.id))!;
        count(now.rows_synced - seen);
        seen = now.rows_synced;
        if (now.status === 'succeeded') return;
        if (now.status === 'failed' || now.status === 'cancelled' || now.attempts > 1) {
          throw new Error(`sync job ${now.status} (attempt ${now.attempts}): ${(await jobs.attempts(job.id)).map((a) => a.failure).join('; ')}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
  } finally {
    await worker.stop();
    await driver.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sqliteDestination = (round: number): SyncTarget['destination'] => ({
  destinationId: 'bench',
  destinationType: 'sqlite',
  configuration: { destinationType: 'sqlite', destination_path: `/local/bench-${round}.sqlite` },
});

try {
  const readRates: number[] = [];
  const syncRates: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    const read = await readOnly();
    const sqlite = await sync('sync into SQLite', sqliteDestination(round), round);
    if (sqlite.records !== read.records) throw new Error(`the sync wrote ${sqlite.records} records, the read gave ${read.records}`);
    readRates.push(read.records / read.seconds);
    syncRates.push(sqlite.records / sqlite.seconds);
  }
  if (process.env.TEST_DATABASE_URL) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    const schema = `bench_sync_${process.pid}`;
    try {
      const postgres = await sync(
        'sync into PostgreSQL',
        {
          destinationId: 'bench',
          destinationType: 'postgres',
          configuration: postgresConfigurationFromUrl(url.href, schema),
        },
        0,
      );
      console.log(`postgres_sync_records_per_s=${Math.round(postgres.records / postgres.seconds)}`);
    } finally {
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
  clearInterval(sampler);
  const [readRate, syncRate] = [median(readRates), median(syncRates)];
  console.log(`read records/s per round: ${readRates.map(Math.round).join(', ')}; SQLite sync: ${syncRates.map(Math.round).join(', ')}`);
  console.log(`peak RSS ${mb(peakRss)} (streams are written in batches, never held whole)`);
  console.log(`target: sync_over_read >= 0.7 on SQLite`);
  console.log(`sync_over_read=${(syncRate / readRate).toFixed(3)}`);
  console.log(`sync_records_per_s=${Math.round(syncRate)}`);
} finally {
  clearInterval(sampler);
  stopChildren();
  rmSync(dataDir, { recursive: true, force: true });
}
