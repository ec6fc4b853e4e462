/**
 * npm run bench:hosted — hosted execute of chat `users.list` (a page of 200) versus the in-process
 * runtime against the same Slack sandbox, at concurrency 1 (interleaved) and 16, plus operator-token
 * issuance per second, alone and under a flood of wrong secrets. The sandbox and the server run as
 * child processes (the server on a fresh SQLite data dir). Prints medians, p99 and throughput, and last
 * `hosted_latency_ratio=<hosted median / in-process median at concurrency 1>` (target: within 5% of
 * bench:hosted-floor's "reserialize" probe).
 */
import { performance } from 'node:perf_hooks';
import got, { type Got } from 'got';
import { interleave, quantile, startChild, startHostedBench, timed, untilDeadline } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = 30;
const CONCURRENT_REQUESTS = Number(process.env.BENCH_CONCURRENT_REQUESTS ?? 640);
const TOKEN_SECONDS = 3;
const FLOOD_CALLERS = 64;

type Credentials = { client_id: string; client_secret: string };

/** Operator tokens 4 concurrent clients obtain in `ms`. */
function issueTokens(http: Got, credentials: Credentials, ms: number): Promise<number> {
  return untilDeadline(4, ms, () => http.post('api/v1/account/applications/token', { json: credentials }).json());
}

/**
 * issueTokens while FLOOD_CALLERS callers (scripts/wrong-secret-flood.ts, its own process) send wrong
 * secrets for the same client_id as fast as they are answered.
 */
async function issuanceUnderFlood(http: Got, serverUrl: string, credentials: Credentials) {
  const flood = await startChild(
    ['scripts/wrong-secret-flood.ts', serverUrl, credentials.client_id, String(FLOOD_CALLERS), String(TOKEN_SECONDS + 1)],
    {},
    /^flooding$/,
  );
  await new Promise((resolve) => setTimeout(resolve, 500)); // the flood is under way before the real clients start
  const issued = await issueTokens(http, credentials, TOKEN_SECONDS * 1000);
  const summary = JSON.parse((await flood.nextLine())!) as { attemptsPerSecond: number; statuses: Record<string, number> };
  return { issuedPerSecond: issued / TOKEN_SECONDS, ...summary };
}

const formatStatuses = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ');

const { serverUrl, credentials, local, hosted, close } = await startHostedBench();
try {
  const http = got.extend({ prefixUrl: serverUrl });

  const listPage = async (client: typeof local) => {
    const page = await client.users.list({ limit: 200 });
    if (page.result.length !== 200) throw new Error('page is not 200 users');
  };

  // Concurrency 1, interleaved.
  const sequential = await interleave({ inProcess: () => listPage(local), hosted: () => listPage(hosted) }, { rounds: ROUNDS, warmup: WARMUP });

  // Concurrency 16: 16 workers share a fixed number of requests.
  const concurrent = async (client: typeof local) => {
    const latencies: number[] = [];
    let remaining = CONCURRENT_REQUESTS;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (remaining-- > 0) latencies.push(await timed(() => listPage(client)));
      }),
    );
    return { latencies, perSecond: (latencies.length / (performance.now() - started)) * 1000 };
  };
  const inProcess16 = await concurrent(local);
  const hosted16 = await concurrent(hosted);

  // Operator-token issuance (each verifies the client secret).
  const issued = await issueTokens(http, credentials, TOKEN_SECONDS * 1000);

  // The same issuance while 64 callers flood the endpoint with wrong secrets for the known client_id,
  // from another loopback address (a real attacker is not at the real client's address).
  const flood = await issuanceUnderFlood(http, serverUrl, credentials);

  const line = (label: string, values: number[], perSecond?: number) =>
    console.log(
      `${label}: median_ms=${quantile(values, 0.5).toFixed(2)} p99_ms=${quantile(values, 0.99).toFixed(2)}${perSecond ? ` throughput_rps=${perSecond.toFixed(0)}` : ''}`,
    );
  console.log(`users.list, page of 200; concurrency 1: ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; concurrency 16: ${CONCURRENT_REQUESTS} requests`);
  line('in-process c=1', sequential.inProcess);
  line('hosted     c=1', sequential.hosted);
  line('in-process c=16', inProcess16.latencies, inProcess16.perSecond);
  line('hosted     c=16', hosted16.latencies, hosted16.perSecond);
  console.log(`operator tokens: ${(issued / TOKEN_SECONDS).toFixed(1)} per second (4 concurrent clients)`);
  console.log(
    `operator tokens under a wrong-secret flood: ${flood.issuedPerSecond.toFixed(1)} per second (4 concurrent clients; ${FLOOD_CALLERS} wrong-secret callers from 127.0.0.2 made ${flood.attemptsPerSecond.toFixed(0)} attempts/s, answered ${formatStatuses(flood.statuses)})`,
  );
  console.log(`hosted_latency_ratio=${(quantile(sequential.hosted, 0.5) / quantile(sequential.inProcess, 0.5)).toFixed(3)}`);
} finally {
  close();
}
