/**
 * npm run bench:hosted — hosted execute of chat `users.list` (a page of 200) versus the in-process
 * runtime against the same Slack sandbox, at concurrency 1 (interleaved) and 16, plus operator-token
 * issuance per second. The sandbox and the server run as child processes (the server on a fresh
 * SQLite data dir). Prints medians, p99 and throughput, and last
 * `hosted_latency_ratio=<hosted median / in-process median at concurrency 1>` (target: at most 2.0).
 */
import { performance } from 'node:perf_hooks';
import got from 'got';
import { interleave, quantile, startHostedBench, timed } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = 30;
const CONCURRENT_REQUESTS = Number(process.env.BENCH_CONCURRENT_REQUESTS ?? 640);
const TOKEN_SECONDS = 3;

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

  // Operator-token issuance (each verifies the scrypt-hashed client secret).
  let issued = 0;
  const tokenDeadline = performance.now() + TOKEN_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < tokenDeadline) {
        await http.post('api/v1/account/applications/token', { json: credentials }).json();
        issued += 1;
      }
    }),
  );

  const line = (label: string, values: number[], perSecond?: number) =>
    console.log(`${label}: median_ms=${quantile(values, 0.5).toFixed(2)} p99_ms=${quantile(values, 0.99).toFixed(2)}${perSecond ? ` throughput_rps=${perSecond.toFixed(0)}` : ''}`);
  console.log(`users.list, page of 200; concurrency 1: ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; concurrency 16: ${CONCURRENT_REQUESTS} requests`);
  line('in-process c=1', sequential.inProcess);
  line('hosted     c=1', sequential.hosted);
  line('in-process c=16', inProcess16.latencies, inProcess16.perSecond);
  line('hosted     c=16', hosted16.latencies, hosted16.perSecond);
  console.log(`operator tokens: ${(issued / TOKEN_SECONDS).toFixed(1)} per second (4 concurrent clients)`);
  console.log(`hosted_latency_ratio=${(quantile(sequential.hosted, 0.5) / quantile(sequential.inProcess, 0.5)).toFixed(3)}`);
} finally {
  close();
}
