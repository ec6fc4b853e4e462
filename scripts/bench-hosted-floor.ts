/**
 * npm run bench:hosted-floor — how low bench:hosted's `hosted_latency_ratio` can go on this machine.
 * Interleaves, in one run and against one chat sandbox, `users.list` (a page of 200) made:
 *   in-process   (the ratio's denominator),
 *   through three bare probe servers (scripts/hosted-floor-server.ts: relay, splice, reserialize),
 *   hosted       through the real Plugboard server,
 * each probe called the way the hosted client calls the server (got POST, JSON answer parsed), and
 * prints each one's median and its ratio to in-process. A probe's ratio is a floor for any server
 * that does at least that probe's work.
 */
import got from 'got';
import { interleave, quantile, startChild, startHostedBench } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = 30;
const LIMIT = 200;
const PROBES = ['relay', 'splice', 'reserialize'] as const;

const { token, sandboxUrl, local, hosted, close } = await startHostedBench();
try {
  const probeHttp = got.extend({ retry: { limit: 0 }, decompress: false });

  const calls: Record<string, () => Promise<unknown[]>> = {
    'in-process': async () => (await local.users.list({ limit: LIMIT })).result,
    hosted: async () => (await hosted.users.list({ limit: LIMIT })).result,
  };
  for (const probe of PROBES) {
    const url = (await startChild(['scripts/hosted-floor-server.ts', probe, sandboxUrl, token], {}, /listening on (\S+)/)).match[1]!;
    calls[probe] = async () => {
      const body = JSON.parse((await probeHttp.post(url, { json: { params: { limit: LIMIT } } })).body) as { result?: unknown[]; members?: unknown[] };
      return body.result ?? body.members ?? [];
    };
  }

  const checked = Object.fromEntries(
    Object.entries(calls).map(([name, call]) => [
      name,
      async () => {
        const records = await call();
        if (records.length !== LIMIT) throw new Error(`${name} answered ${records.length} records, not ${LIMIT}`);
      },
    ]),
  );
  const timings = await interleave(checked, { rounds: ROUNDS, warmup: WARMUP });

  const base = quantile(timings['in-process']!, 0.5);
  console.log(`users.list, page of ${LIMIT}; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; ratio = median / in-process median`);
  for (const name of ['in-process', ...PROBES, 'hosted']) {
    const median = quantile(timings[name]!, 0.5);
    console.log(`${name.padEnd(11)} median_ms=${median.toFixed(2)} ratio=${(median / base).toFixed(3)}`);
  }
} finally {
  close();
}
