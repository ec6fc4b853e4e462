/**
 * `npm run sandbox` as a newcomer meets it: run bare it shows its usage; on a port already taken it
 * says so in one line, not a stack trace.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../scripts/sandbox.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run sandbox', { timeout: 60_000 }, () => {
  it('run bare, prints its usage', async () => {
    const answer = await run([]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/^Usage: npm run sandbox -- \[options\] <connector>/);
  });

  it('on a port already taken, says so in one line', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const answer = await run(['chat', '--token', 'T', '--port', String(port)]);
      expect(answer.code).toBe(1);
      expect(answer.stderr.trim()).toBe(`port ${port} on 127.0.0.1 is in use: choose another with --port`);
    } finally {
      taken.close();
    }
  });
});
