#!/usr/bin/env node
// `node scripts/run-bundled.mjs <entry.ts> [args]`: runs a TypeScript entry point (the server's,
// a benchmark's) bundled into plain JavaScript, so the process has no module loader thread (tsx's
// costs about 30 MB of RSS for as long as the process lives), and with a heap kept nearer its live
// size. The bundle is made at each start (under a second) and kept in node_modules/.cache;
// connectors loaded later by path are bundled as they come (core/modules/import-module.ts).
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { bundleModule } from '../core/modules/bundle-module.mjs';

// Each thread's heap grows to 1.5 times what its last full collection left live, not up to 4 times (V8
// reads the flag at each such step): a sync's peak RSS measured 214 to 257 MB against 304 to 317,
// about 5% slower (docs/sync.md).
setFlagsFromString('--heap-growing-percent=50');

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-bundled.mjs <entry.ts> [args...]');
  process.exit(2);
}
const file = resolve(entry);
// The entry sees the argv it would see run directly: itself, then its arguments.
process.argv.splice(1, process.argv.length - 1, file, ...args);
let bundle;
try {
  bundle = await bundleModule(file, 'plugboard-bundles');
} catch (error) {
  // esbuild's message names each file and line it could not take; its stack says nothing more.
  if (error instanceof Error && 'errors' in error) {
    console.error(`${entry} could not be bundled: ${error.message}`);
    process.exit(1);
  }
  // No writable node_modules/.cache (a read-only install): run through tsx's loader, as before.
  console.error(`${entry} runs through tsx, not bundled: ${error instanceof Error ? error.message : String(error)}`);
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
}
await import(pathToFileURL(bundle ?? file).href);
