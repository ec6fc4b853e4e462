/** What the benchmarks share: child processes that print their address, interleaved timing, and order statistics. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import got from 'got';
import { createRuntime } from '../index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];

/**
 * Starts a TS entry point as a child and resolves with the first stdout line matching `pattern`, every
 * line before it, and `nextLine()` to read on (undefined once the child's output ends).
 */
export async function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ match: RegExpMatchArray; lines: string[]; nextLine(): Promise<string | undefined>; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const output = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => (await output.next()).value as string | undefined;
  const lines: string[] = [];
  for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
    lines.push(line);
    const match = pattern.exec(line);
    if (match) return { match, lines, nextLine, pid: child.pid! };
  }
  throw new Error(`${args.join(' ')} exited before printing ${pattern}`);
}

/** Stops every child startChild started. */
export function stopChildren(): void {
  for (const child of children) child.kill('SIGTERM');
}

/** Runs `work` over and over in `workers` concurrent loops until `ms` have passed; answers how many runs finished. */
export async function untilDeadline(workers: number, ms: number, work: () => Promise<unknown>): Promise<number> {
  let runs = 0;
  const deadline = performance.now() + ms;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        await work();
        runs += 1;
      }
    }),
  );
  return runs;
}

/** The q-quantile by rank (q = 0.5: the median). */
export function quantile(values: number[], q: number): number {
  return [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Calls each named function once per round, for `warmup + rounds` rounds, rotating the order every
 * round so no call always follows the same one (with two calls: alternating which goes first).
 * Returns each name's timings in milliseconds, warm-up rounds left out.
 */
export async function interleave<Name extends string>(
  calls: Record<Name, () => Promise<unknown>>,
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<Record<Name, number[]>> {
  const names = Object.keys(calls) as Name[];
  const timings = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let round = 0; round < warmup + rounds; round += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(round + i) % names.length]!;
      const ms = await timed(calls[name]);
      if (round >= warmup) timings[name].push(ms);
    }
  }
  return timings;
}

/**
 * The chat sandbox (1000 users, accepting `token`) and a Plugboard server on a fresh SQLite data dir, each in a child
 * process, with the external user `bench-user`'s chat connector stored on the server; and, in this
 * process, the two clients the benchmarks compare: in-process against the sandbox, hosted through
 * the server. `close()` stops the children and removes the data dir.
 */
export async function startHostedBench(token = 'xoxb-bench-hosted') {
  const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-bench-'));
  const close = () => {
    stopChildren();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const sandbox = await startChild(
      ['scripts/sandbox.ts', 'chat', '--token', token, '--set', 'users=1000', '--set', 'channels=5', '--set', 'messagesPerChannel=5'],
      {},
      /listening: (\S+)/,
    );
    const sandboxUrl = sandbox.match[1]!;
    const server = await startChild(
      ['server/main.ts'],
      { PORT: '0', PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_CHAT_BASE_URL: sandboxUrl, LOG_LEVEL: 'warn' },
      /listening on (\S+)/,
    );
    const serverUrl = server.match[1]!;
    const credentials = JSON.parse(server.lines.find((line) => line.startsWith('{'))!) as { client_id: string; client_secret: string };
    const http = got.extend({ prefixUrl: serverUrl });
    const operator = await http.post('api/v1/account/applications/token', { json: credentials }).json<{ access_token: string }>();
    const scoped = await http
      .post('api/v1/embedded/scoped-token', { headers: { authorization: `Bearer ${operator.access_token}` }, json: { workspace_name: 'bench-user' } })
      .json<{ token: string }>();
    await http.post('v1/integrations/connectors', {
      headers: { authorization: `Bearer ${scoped.token}` },
      json: { external_user_id: 'bench-user', connector_type: 'chat', credentials: { token } },
    });

    const runtime = await createRuntime();
    const local = runtime.connector('chat', { credentials: { token }, base_url: sandboxUrl });
    const hosted = runtime.connector('chat', {
      external_user_id: 'bench-user',
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
      server_url: serverUrl,
    });
    return { token, sandboxUrl, serverUrl, credentials, local, hosted, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** The CPU seconds a child process has used so far (Linux's /proc; 0 elsewhere): what the upstream's emulator costs, beside this process's own. */
export function childCpuSeconds(pid: number): number {
  return procStat(pid)?.cpuSeconds ?? 0;
}

/** The CPU seconds used so far by every local process of that command name (`postgres`: the database server's backends), on Linux. */
export function commandCpuSeconds(command: string): number {
  let seconds = 0;
  for (const entry of readdirSync('/proc', { withFileTypes: true })) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = procStat(Number(entry.name));
    if (stat?.command === command) seconds += stat.cpuSeconds + stat.childrenCpuSeconds;
  }
  return seconds;
}

/** A process's CPU seconds, and those of its children that ended (a database server's closed connections). */
function procStat(pid: number): { command: string; cpuSeconds: number; childrenCpuSeconds: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime, stime, cutime and cstime are the 12th to 15th, in clock ticks (100 per second on Linux).
    const fields = text
      .slice(text.lastIndexOf(') ') + 2)
      .split(' ')
      .map(Number);
    return {
      command: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
      cpuSeconds: (fields[11]! + fields[12]!) / 100,
      childrenCpuSeconds: (fields[13]! + fields[14]!) / 100,
    };
  } catch {
    return undefined;
  }
}
