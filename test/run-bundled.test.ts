/**
 * scripts/run-bundled.mjs, how `npm start` and bench:sync run: the entry point bundled into plain
 * JavaScript, with no module loader, yet seeing its own location, its arguments and the connectors
 * it loads by path (TypeScript, importing `plugboard/sdk`) as it would run directly.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = new URL('./fixtures/bundled/entry.ts', import.meta.url);

function runBundled(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['scripts/run-bundled.mjs', ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

describe('scripts/run-bundled.mjs', () => {
  it('runs a TypeScript entry from its bundle, no loader registered, as it would run directly', async () => {
    const run = await runBundled([fileURLToPath(ENTRY), 'one', '--two']);
    expect(run.stderr).toBe('');
    const seen = JSON.parse(run.stdout) as Record<string, unknown>;
    // Plain JavaScript from the cache: no --import, the code on the stack is the bundle's.
    expect(seen.execArgv).toEqual([]);
    expect(seen.runningFrom).toMatch(/node_modules\/\.cache\/plugboard-bundles\/entry-[0-9a-f]{8}-[0-9a-f]{16}\.mjs/);
    // Its own location and arguments as if run directly.
    expect(seen.url).toBe(ENTRY.href);
    expect(seen.argv).toEqual(['one', '--two']);
    // Connectors imported by path are bundled as they come, and find what lies beside their sources.
    expect(seen.types).toEqual(['chat', 'file-storage', 'issue-tracker']);
    expect(seen.chatIcon).toBe(new URL('../connectors/chat/icon.svg', import.meta.url).href);
  });

  it('prints its usage and exits 2 without an entry', async () => {
    const run = await runBundled([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: node scripts/run-bundled.mjs <entry.ts>');
  });

  it("refuses an entry it cannot bundle with esbuild's message, no stack, exit 1", async () => {
    const run = await runBundled(['test/fixtures/bundled/missing.ts']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^test\/fixtures\/bundled\/missing.ts could not be bundled: .*Could not resolve .*missing.ts/s);
  });

  it('runs an entry with no node_modules above it (nowhere to keep a bundle) through tsx, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-run-'));
    try {
      const entry = join(dir, 'hello.ts');
      writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
      writeFileSync(entry, "const greeting: string = 'hello from tsx';\nconsole.log(greeting);\n");
      const run = await runBundled([entry]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('hello from tsx\n');
      expect(run.stderr).toContain(`runs through tsx, not bundled: no node_modules folder above ${entry}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
