import { fileURLToPath } from 'node:url';
import { bundleModule, markUsed } from '../modules/bundle-module.mjs';

/** Each worker module's bundle (or undefined: none could be made), made once per process. */
const bundles = new Map<string, Promise<string | undefined>>();

/**
 * A worker module bundled into one plain JavaScript file (modules/bundle-module.mjs, under
 * node_modules/.cache/plugboard-workers). A thread that runs it loads neither tsx nor TypeScript:
 * measured, 10 MB of RSS and 30 ms to start, against 34 MB and 130 ms through tsx. Undefined where
 * it cannot be: the bundle would still read its own location (an `import.meta` other than its URL,
 * dirname or filename), or there is no writable cache; the caller then runs the module through tsx.
 * Bundled off the event loop (esbuild's service), which a synchronous build would hold, once per
 * process unless the file goes.
 */
export async function workerScript(module: URL): Promise<string | undefined> {
  const making = bundles.get(module.href);
  if (making) {
    const script = await making;
    // Marked at each thread's start, so that no other process prunes it; made again if gone all the same.
    if (script === undefined || (await markUsed(script))) return script;
    // Another thread's start found it gone first, and is making it again.
    if (bundles.get(module.href) !== making) return bundles.get(module.href);
  }
  // A bundle that still reads its location otherwise is refused: the thread then runs through tsx.
  const made = bundleModule(fileURLToPath(module), 'plugboard-workers', (code) => !code.includes('import.meta')).catch(() => undefined);
  bundles.set(module.href, made);
  return made;
}
