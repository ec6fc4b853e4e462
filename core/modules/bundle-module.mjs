// Plain JavaScript: the launcher (scripts/run-bundled.mjs) runs it before any TypeScript can be loaded.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { build } from 'esbuild';

/**
 * Bundles a TypeScript module (and the project's modules it imports) into one plain JavaScript file,
 * its packages left for Node to load from node_modules, and answers the file's path. The file is
 * written under node_modules/.cache/<cache> (nearest up from the module), named by the module's
 * name and path and by its content, so a changed module gets a new file and processes side by side
 * never write the same one. Each source file's `import.meta` becomes its own location, so the bundle
 * finds what lies beside the sources (migrations, assets, worker modules, connectors). Throws where
 * esbuild cannot bundle it (its `errors` name each file and line), there is no writable cache, or
 * `accept` refuses the bundle's code.
 * @param {string} file
 * @param {string} cache
 * @param {(code: string) => boolean} [accept]
 * @returns {Promise<string>}
 */
export async function bundleModule(file, cache, accept = () => true) {
  const folder = cacheFolder(dirname(file), cache);
  if (!folder) throw new Error(`no node_modules folder above ${file} to keep its bundle in`);
  const built = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Classes keep their names: errors report `new.target.name`.
    keepNames: true,
    write: false,
    logLevel: 'silent',
    plugins: [packagesOutside, ownLocation],
  });
  const code = built.outputFiles[0].text;
  if (!accept(code)) throw new Error(`the bundle of ${file} was refused`);
  // Every connector's entry is an index.ts: the path tells their bundles apart.
  const module = `${basename(file, extname(file))}-${sha256(file).slice(0, 8)}`;
  const script = join(folder, `${module}-${sha256(code).slice(0, 16)}.mjs`);
  if (!(await markUsed(script))) {
    await mkdir(folder, { recursive: true });
    // Written whole under another name first: another process or thread may start from it meanwhile.
    const partial = `${script}.${process.pid}.${threadId}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(partial, code);
    await rename(partial, script);
  }
  await pruneOlder(folder, module, script);
  return script;
}

/** Marks a bundle as in use (its time), so that pruning spares it; false when there is none. */
export async function markUsed(script) {
  const now = new Date();
  return utimes(script, now, now).then(
    () => true,
    () => false,
  );
}

/** Unused for this long, another bundle of the same module is deleted: each edit of the sources makes one. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** Deletes the module's other bundles (older versions of its code) not used for a day. */
async function pruneOlder(folder, module, kept) {
  const pattern = new RegExp(`^${module.replace(/[^\w-]/g, '\\$&')}-[0-9a-f]{16}\\.mjs$`);
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

function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
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

/**
 * Each TypeScript file's `import.meta.url`, `.dirname` and `.filename` written as literals of its own
 * location: in a bundle they would name the bundle.
 * @type {import('esbuild').Plugin}
 */
const ownLocation = {
  name: 'own-location',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?ts$/ }, async ({ path }) => {
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
