import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleModule } from '../core/modules/bundle-module.mjs';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with a node_modules (where bundles are kept) and a TypeScript module that imports another and reads its own location. */
function project(): { dir: string; module: string; cache: string } {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-bundle-'));
  made.push(dir);
  mkdirSync(join(dir, 'node_modules'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'twice.ts'), 'export const twice = (n: number): number => n * 2;\nexport const where: string = import.meta.url;\n');
  writeFileSync(join(dir, 'main.ts'), "import { twice, where } from './lib/twice.ts';\nexport const answer: number = twice(21);\nexport { where };\n");
  return { dir, module: join(dir, 'main.ts'), cache: join(dir, 'node_modules', '.cache', 'test-bundles') };
}

describe('bundleModule', () => {
  it('bundles a module into plain JavaScript under node_modules/.cache, each file keeping its own location', async () => {
    const { dir, module } = project();
    const script = await bundleModule(module, 'test-bundles');
    expect(script).toMatch(/node_modules\/\.cache\/test-bundles\/main-[0-9a-f]{8}-[0-9a-f]{16}\.mjs$/);
    expect(readFileSync(script, 'utf8')).not.toContain(': number');
    const loaded = (await import(pathToFileURL(script).href)) as { answer: number; where: string };
    expect(loaded.answer).toBe(42);
    expect(loaded.where).toBe(pathToFileURL(join(dir, 'lib', 'twice.ts')).href);
    // The same code, the same file.
    expect(await bundleModule(module, 'test-bundles')).toBe(script);
  });

  it("deletes the module's other bundles unused for a day, and nothing else", async () => {
    const { module, cache } = project();
    const script = await bundleModule(module, 'test-bundles');
    // Named by the module's name and path: another main.ts elsewhere is another module.
    const prefix = basename(script).slice(0, -'0123456789abcdef.mjs'.length);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const stale = join(cache, `${prefix}0123456789abcdef.mjs`);
    const recent = join(cache, `${prefix}fedcba9876543210.mjs`);
    const otherModule = join(cache, 'main-00000000-0123456789abcdef.mjs');
    for (const file of [stale, recent, otherModule]) writeFileSync(file, 'export {};\n');
    for (const file of [stale, otherModule, script]) utimesSync(file, twoDaysAgo, twoDaysAgo);
    expect(await bundleModule(module, 'test-bundles')).toBe(script);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(otherModule)).toBe(true);
    // The one in use was marked so, and is spared by the next prune.
    expect(Date.now() - statSync(script).mtimeMs).toBeLessThan(3600 * 1000);
    expect(readdirSync(cache).filter((entry) => entry.endsWith('.partial'))).toEqual([]);
  });

  it('refuses a module with no node_modules above it', async () => {
    await expect(bundleModule('/nowhere-plugboard/main.ts', 'test-bundles')).rejects.toThrow('no node_modules folder above /nowhere-plugboard/main.ts');
  });
});
