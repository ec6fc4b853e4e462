/**
 * The `plugboard` command itself, as a newcomer first meets it: `--version`, the help without a
 * command (a success), and an unknown command (one line, exit 1).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../scripts/plugboard.mjs', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('plugboard', { timeout: 60_000 }, () => {
  it('prints its version', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('without a command prints its help and succeeds', async () => {
    const answer = await run([]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/^Usage: plugboard \[options\] \[command\]/);
    expect(answer.stdout).toContain('cloud');
  });

  it('names an unknown command and fails', async () => {
    const answer = await run(['nope']);
    expect(answer.code).toBe(1);
    expect(answer.stderr.split('\n')[0]).toBe("error: unknown command 'nope'");
  });
});
