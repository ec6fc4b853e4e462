import { existsSync, readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WorkerCalls } from '../core/hosted/worker-calls.ts';
import { workerScript } from '../core/hosted/worker-script.ts';

const ECHO = new URL('./fixtures/workers/echo-worker.ts', import.meta.url);
const LOCATED = new URL('./fixtures/workers/located-worker.ts', import.meta.url);
const RESOLVING = new URL('./fixtures/workers/resolving-worker.ts', import.meta.url);

describe('worker threads run their module bundled, without tsx', () => {
  it('bundles a worker module into plain JavaScript under node_modules/.cache, once per process', async () => {
    const script = await workerScript(ECHO);
    expect(script).toMatch(/node_modules\/\.cache\/plugboard-workers\/echo-worker-[0-9a-f]{8}-[0-9a-f]{16}\.mjs$/);
    const code = readFileSync(script!, 'utf8');
    // Plain JavaScript: the type arguments are gone, the worker-calls module is inside.
    expect(code).not.toContain('serveCalls<');
    expect(code).toContain('parentPort');
    expect(await workerScript(ECHO)).toBe(script);
  });

  it('bundles again a worker module whose file went (another process pruned it, the cache was emptied)', async () => {
    const script = await workerScript(ECHO);
    rmSync(script!);
    expect(await workerScript(ECHO)).toBe(script);
    expect(existsSync(script!)).toBe(true);
  });

  it('bundles every worker module of the product', async () => {
    for (const module of [
      '../core/hosted/sync/destinations/sqlite-worker.ts',
      '../core/hosted/sync/destinations/postgres-loader-worker.ts',
      '../core/hosted/context-store/sqlite-write-worker.ts',
      '../core/hosted/context-store/sqlite-read-worker.ts',
    ])
      expect(await workerScript(new URL(module, import.meta.url)), module).toMatch(/\.mjs$/);
  });

  it('answers calls from a bundled thread', async () => {
    const calls = new WorkerCalls<{ n: number }, number>(ECHO, undefined, 'the echo thread');
    try {
      expect(await calls.call({ n: 21 })).toBe(42);
    } finally {
      await calls.close({ n: 0 });
    }
  });

  it("bundles a module that reads its own URL with its source's location", async () => {
    expect(await workerScript(LOCATED)).toMatch(/\.mjs$/);
    const calls = new WorkerCalls<{ n: number }, string>(LOCATED, undefined, 'the located thread');
    try {
      expect(await calls.call({ n: 1 })).toBe(LOCATED.href);
    } finally {
      await calls.close({ n: 0 });
    }
  });

  it('runs a module that resolves from its own location through tsx instead, where it lies', async () => {
    expect(await workerScript(RESOLVING)).toBeUndefined();
    const calls = new WorkerCalls<{ n: number }, string>(RESOLVING, undefined, 'the resolving thread');
    try {
      expect(await calls.call({ n: 1 })).toBe(ECHO.href);
    } finally {
      await calls.close({ n: 0 });
    }
  });
});
