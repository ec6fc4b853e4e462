import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NewApplicationCredentials } from '../../core/hosted/applications.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
/** The server runs as `npm start` runs it: bundled into plain JavaScript by this launcher, without tsx. */
const RUN_BUNDLED = fileURLToPath(new URL('../../scripts/run-bundled.mjs', import.meta.url));

/**
 * Scripts run through tsx, as `npm run admin` does, but as `node --import tsx` (tsx resolved from
 * here, whatever the child's working directory). The tsx CLI would relay a SIGTERM and kill the
 * child outright when it takes over 30 ms to acknowledge it, as happens on a loaded machine.
 */
const NODE_TSX = [process.execPath, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] as const;

/** The parent's environment without any Plugboard setting, so a child sees only what the test gives it. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PLUGBOARD_|DATABASE_URL$|HOST$|PORT$|LOG_LEVEL$)/.test(name)));
  // Sandboxes and PostgreSQL are on loopback: opened explicitly, as an operator would.
  return { ...base, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', PLUGBOARD_EGRESS_ALLOW: '127.0.0.0/8,::1,localhost', ...env };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script of the repository (`scripts/admin.ts ...`) to its end. */
export function runScript(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), ...args], { cwd: ROOT, env: cleanEnv(env) });
  const out = collectOutput(child);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, ...out })));
}

export interface ServerProcess {
  /** Set once listening; null when the process ended first (it refused to start). */
  url: string | null;
  /** The credentials the process printed on a first start, if it did. */
  firstApplication: NewApplicationCredentials | null;
  output: { stdout: string; stderr: string };
  /** The exit code when it ended without listening. */
  exitCode: number | null;
  /** The child's process id, to read what it holds (`/proc/<pid>/maps`). */
  pid: number;
  stop(): Promise<void>;
  /** Sends the process a signal (SIGKILL: a crash, nothing shut down) and waits for it to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * `npm start` in a child process: resolves once it listens, or once it exits (refusing to start).
 * `cwd`: where it runs (default the repository), which relative paths in its settings start from.
 */
export function startServerProcess(env: Record<string, string>, options: { cwd?: string } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [RUN_BUNDLED, MAIN], { cwd: options.cwd ?? ROOT, env: cleanEnv(env) });
  const output = collectOutput(child);
  const pid = child.pid!;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const stop = () => kill('SIGTERM');
  return new Promise((resolve) => {
    const onData = () => {
      const listening = /Plugboard listening on (http:\/\/\S+) /.exec(output.stdout);
      if (!listening) return;
      child.stdout!.off('data', onData);
      const printed = output.stdout.split('\n').find((line) => line.startsWith('{"organization_id"'));
      resolve({
        url: listening[1]!,
        firstApplication: printed ? (JSON.parse(printed) as NewApplicationCredentials) : null,
        output,
        exitCode: null,
        pid,
        stop,
        kill,
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => resolve({ url: null, firstApplication: null, output, exitCode: code, pid, stop, kill }));
  });
}

function collectOutput(child: ChildProcess): { stdout: string; stderr: string } {
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return output;
}
