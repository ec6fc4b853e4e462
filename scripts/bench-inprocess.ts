/**
 * npm run bench:inprocess — in-process `users.list` (a page of 200) against the Slack sandbox versus
 * the same HTTP call made directly with got, interleaved in one process so both see the same machine.
 * Prints medians and, last, `overhead_ratio=<runtime median / direct median>` (target: at most 1.10).
 */
import got from 'got';
import { createRuntime } from '../index.ts';
import { startSandbox } from '../connectors/chat/sandbox/index.ts';
import { interleave, quantile } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const WARMUP = 50;
const token = 'xoxb-bench';

const sandbox = await startSandbox({ token, users: 1000, channels: 5, messagesPerChannel: 5, recordRequests: false });
const runtime = await createRuntime();
const chat = runtime.connector('chat', { credentials: { token }, base_url: sandbox.url });
const direct = got.extend({ headers: { authorization: `Bearer ${token}` } });

const viaRuntime = async () => {
  const page = await chat.users.list({ limit: 200 });
  if (page.result.length !== 200) throw new Error('runtime page is not 200 users');
};
const viaGot = async () => {
  // Parsed by got itself (responseType json), as the runtime's transport does: the fastest plain got call.
  const body = (await direct(`${sandbox.url}/users.list`, { searchParams: { limit: 200 }, responseType: 'json', resolveBodyOnly: true })) as {
    members: unknown[];
  };
  if (body.members.length !== 200) throw new Error('direct page is not 200 users');
};

// Two calls: interleave alternates which goes first, so neither always runs on a warmer cache.
const timings = await interleave({ runtime: viaRuntime, direct: viaGot }, { rounds: ROUNDS, warmup: WARMUP });
await sandbox.close();

const runtimeMedian = quantile(timings.runtime, 0.5);
const directMedian = quantile(timings.direct, 0.5);
console.log(`users.list, page of 200, ${ROUNDS} interleaved rounds after ${WARMUP} warm-up`);
console.log(`runtime_median_ms=${runtimeMedian.toFixed(3)}`);
console.log(`direct_median_ms=${directMedian.toFixed(3)}`);
console.log(`overhead_ratio=${(runtimeMedian / directMedian).toFixed(3)}`);
