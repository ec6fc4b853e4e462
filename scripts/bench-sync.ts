/**
 * npm run bench:sync: a connection syncs a Slack sandbox of over 1,000,000 records (users and channel
 * messages; the sandbox in a child process, as the real upstream is) into SQLite, and into PostgreSQL
 * when `--postgres <url>` or TEST_DATABASE_URL names a database (its own schema, dropped at the end),
 * through the same job worker the server runs. The floor is reading the same streams through the same
 * reader without writing. After one read that warms the sandbox up, floor reads and syncs alternate,
 * one sync per destination a round, for `--rounds` rounds (BENCH_ROUNDS, default 3; the machine is
 * shared and noisy); each sync is compared with the mean rate of the reads just before and after it,
 * and the medians of those ratios are reported. `--destinations postgres` leaves SQLite out. Prints
 * progress, every rate, each run's CPU per record (this process's threads together; the sandbox and
 * the database server not) and peak RSS; then the medians `read_cpu_us_per_record`,
 * `<destination>_cpu_us_per_record`, `<destination>_peak_rss_mb`, and for PostgreSQL then SQLite
 * `…_over_read_of_medians` (the median sync rate over the median of every floor read),
 * `…_over_read` (the median of the syncs' ratios) and `…_records_per_s`: last
 * `sync_over_read=<SQLite's median ratio>` and `sync_records_per_s=<median SQLite sync rate>`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
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
import { childCpuSeconds, commandCpuSeconds, quantile, startChild, stopChildren } from './bench-support.ts';

const SIZES = { users: 120_000, channels: 1_000, messagesPerChannel: 1_100 };
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    postgres: { type: 'string', default: process.env.TEST_DATABASE_URL },
    destinations: { type: 'string', default: 'sqlite,postgres' },
  },
});
const ROUNDS = Number(args.rounds);
/** The destinations synced into, each round: PostgreSQL only where a database is named. */
const DESTINATIONS = args.destinations.split(',').filter((type) => type === 'sqlite' || (type === 'postgres' && args.postgres)) as ('sqlite' | 'postgres')[];
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
/** The highest RSS since the current run started (this process: its writer threads included, the sandbox not). */
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 250);
/** This thread's garbage collection time, in ms since it started: a share of the event loop's busy time. */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Seconds, records, peak RSS and CPU per record of a run, with a progress line every 5 s. */
async function timed(
  label: string,
  run: (count: (n: number) => void) => Promise<void>,
): Promise<{ records: number; seconds: number; peakRss: number; cpuPerRecord: number }> {
  let records = 0;
  peakRss = process.memoryUsage.rss();
  const started = performance.now();
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const gcBefore = gcMs;
  const sandboxCpuBefore = childCpuSeconds(sandbox.pid);
  const databaseCpuBefore = commandCpuSeconds('postgres');
  const progress = setInterval(
    () =>
      console.log(
        `  ${label}: ${records} records, ${((performance.now() - started) / 1000).toFixed(0)} s, rss ${mb(process.memoryUsage.rss())}, this thread's heap ${mb(process.memoryUsage().heapTotal)}, buffers ${mb(process.memoryUsage().arrayBuffers)}`,
      ),
    5_000,
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
  // What a record costs this process in CPU whatever the machine's load (on a crowded machine rates say more about the scheduler).
  const cpuPerRecord = (cpu.user + cpu.system) / records;
  // The sandbox shares the machine: its cores are what this process cannot have.
  const sandboxCores = (childCpuSeconds(sandbox.pid) - sandboxCpuBefore) / seconds;
  // A local PostgreSQL server too (the jobs' own database is SQLite here: what it uses is the destination's).
  const databaseCores = (commandCpuSeconds('postgres') - databaseCpuBefore) / seconds;
  console.log(
    `${label}: ${records} records in ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s (event loop ${(loop * 100).toFixed(0)}% busy, ${((gcMs - gcBefore) / 1000).toFixed(1)} s of it collecting garbage, ${cores.toFixed(2)} cores, ${cpuPerRecord.toFixed(1)} µs of CPU per record, peak RSS ${mb(peakRss)}; the sandbox ${sandboxCores.toFixed(2)} cores${databaseCores >= 0.01 ? `, PostgreSQL's server ${databaseCores.toFixed(2)}` : ''})`,
  );
  return { records, seconds, peakRss, cpuPerRecord };
}

/** The floor: the streams read through the sync's reader (same pages, same parents), nothing written. */
async function readOnly(label = 'read (floor)') {
  const instance = runtime.instance('chat', { credentials: { token: TOKEN }, base_url: baseUrl });
  const source = { connector, execute: (request: ExecuteRequest) => instance.execute(request) as Promise<ExecuteResult>, settings: {} };
  return timed(label, async (count) => {
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

const median = (values: number[]) => quantile(values, 0.5);
const postgresSchema = `bench_sync_${process.pid}`;
const LABELS = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** Where a round's sync of each type writes: a file per round, or one schema whose tables each round's full refresh replaces. */
function destinationFor(type: 'sqlite' | 'postgres', round: number): SyncTarget['destination'] {
  if (type === 'postgres')
    return { destinationId: 'bench', destinationType: 'postgres', configuration: postgresConfigurationFromUrl(args.postgres!, postgresSchema) };
  return { destinationId: 'bench', destinationType: 'sqlite', configuration: { destinationType: 'sqlite', destination_path: `/local/bench-${round}.sqlite` } };
}

async function dropPostgresSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: args.postgres });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${postgresSchema}" CASCADE`);
  await client.end();
}

try {
  const readRates: number[] = [];
  const readCpu: number[] = [];
  const runs = Object.fromEntries(
    DESTINATIONS.map((type) => [type, { rates: [] as number[], ratios: [] as number[], peaks: [] as number[], cpu: [] as number[] }]),
  );
  const floor = async () => {
    const read = await readOnly();
    readRates.push(read.records / read.seconds);
    readCpu.push(read.cpuPerRecord);
    return read;
  };
  // A fresh sandbox serves its first million records slower than later ones: the floor read against it would flatter the first ratio.
  await readOnly('warm-up read (not counted)');
  let before = await floor();
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} of ${ROUNDS}`);
    for (const type of DESTINATIONS) {
      const synced = await sync(`sync into ${LABELS[type]}`, destinationFor(type, round), round);
      if (synced.records !== before.records) throw new Error(`the sync into ${type} wrote ${synced.records} records, the read gave ${before.records}`);
      // Reads on both sides: the machine (and the sandbox) drift as the runs go on, and a floor read only before would favour the sync.
      const after = await floor();
      const rate = synced.records / synced.seconds;
      runs[type]!.rates.push(rate);
      runs[type]!.ratios.push(rate / ((before.records / before.seconds + after.records / after.seconds) / 2));
      runs[type]!.peaks.push(synced.peakRss);
      runs[type]!.cpu.push(synced.cpuPerRecord);
      before = after;
    }
  }
  clearInterval(sampler);
  console.log(`read records/s, each run: ${readRates.map(Math.round).join(', ')}`);
  for (const type of DESTINATIONS) {
    const { rates, ratios, peaks } = runs[type]!;
    console.log(
      `${LABELS[type]} sync records/s per round: ${rates.map(Math.round).join(', ')}; over the reads around it: ${ratios.map((ratio) => ratio.toFixed(3)).join(', ')}; peak RSS per round: ${peaks.map(mb).join(', ')}`,
    );
  }
  console.log('target: sync_over_read >= 0.7 into SQLite with peak RSS under 256 MB; postgres_sync_over_read >= 0.7');
  console.log(`read_cpu_us_per_record=${median(readCpu).toFixed(1)}`);
  for (const type of DESTINATIONS) {
    console.log(`${type}_cpu_us_per_record=${median(runs[type]!.cpu).toFixed(1)}`);
    console.log(`${type}_peak_rss_mb=${Math.round(median(runs[type]!.peaks) / 2 ** 20)}`);
  }
  // SQLite's lines last and unprefixed, the names its targets go by (docs/sync.md).
  for (const type of (['postgres', 'sqlite'] as const).filter((type) => runs[type])) {
    const { rates, ratios } = runs[type]!;
    const name = type === 'sqlite' ? 'sync' : 'postgres_sync';
    console.log(`${name}_over_read_of_medians=${(median(rates) / median(readRates)).toFixed(3)}`);
    console.log(`${name}_over_read=${median(ratios).toFixed(3)}`);
    console.log(`${name}_records_per_s=${Math.round(median(rates))}`);
  }
} finally {
  clearInterval(sampler);
  stopChildren();
  rmSync(dataDir, { recursive: true, force: true });
  if (DESTINATIONS.includes('postgres')) await dropPostgresSchema();
}
