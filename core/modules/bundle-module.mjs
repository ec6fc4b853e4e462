// Plain JavaScript: the launcher (scripts/run-bundled.mjs) runs it before any TypeScript can be loaded.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles a TypeScript module (and the project's modules it imports) into one plain JavaScript file,
 * its packages left for Node to load from node_modules, and answers the file's path. The file is
 * written under node_modules/.cache/<cache> (nearest up from the module), named by its content, so
 * a changed module gets a new file and processes side by side never write the same one. Each source
 * file's `import.meta` becomes its own location, so the bundle finds what lies beside the sources
 * (migrations, assets, worker modules, connectors). Throws where there is no writable cache.
 * @param {string} file
 * @param {string} cache
 * @returns {Promise<string>}
 */
export async function bundleModule(file, cache) {
  const folder = cacheFolder(dirname(file), cache);
  if (!folder) throw new Error(`no node_modules folder above ${file} to keep its bundle in`);
  const built = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [packagesOutside, ownLocation],
  });
  const code = built.outputFiles[0].text;
  const name = basename(file, extname(file));
  const script = join(folder, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(script)) {
    // Marked as in use, so that pruning spares it.
    const now = new Date();
    await utimes(script, now, now).catch(() => undefined);
  } else {
    await mkdir(folder, { recursive: true });
    // Written whole under another name first: another process may start from it meanwhile.
    const partial = `${script}.${process.pid}.partial`;
    await writeFile(partial, code);
    await rename(partial, script);
  }
  await pruneOlder(folder, name, script);
  return script;
}

/** Unused for this long, an older bundle of the same module is deleted: each edit of the sources makes one. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** Deletes the module's other bundles not used for a day (a process still starting from one has long since loaded it). */
async function pruneOlder(folder, name, kept) {
  const pattern = new RegExp(`^${name.replace(/[^\w-]/g, '\\$&')}-[0-9a-f]{16}\\.mjs$`);
  for (const entry of await readdir(folder).catch(() => [])) {
    const path = join(folder, entry);
    if (path === kept || !pattern.test(entry)) continue;
    const used = await stat(path).then(
      (found) => found.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - used > STALE_MS) await unlink(path).catch(() => undefined);
  }
}

/**
 * Packages stay outside the bundle, for Node to load from node_modules, except Plugboard's own
 * (`plugboard/sdk` in a connector package): its TypeScript goes in, as Node could not load it.
 * @type {import('esbuild').Plugin}
 */
const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) => (/^plugboard(\/|$)/.test(path) ? undefined : { path, external: true }));
  },
};

/** @type {import('esbuild').Plugin} */
const ownLocation = {
  name: 'own-location',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const text = await readFile(path, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
        .replaceAll('import.meta.filename', JSON.stringify(path));
      return { contents, loader: 'ts' };
    });
  },
};

/** `node_modules/.cache/<cache>` in the nearest folder up from `dir` that has a `node_modules`. */
function cacheFolder(dir, cache) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) return join(at, 'node_modules', '.cache', cache);
    if (dirname(at) === at) return undefined;
  }
}
