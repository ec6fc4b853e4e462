/**
 * Generates TypeScript types from each built-in connector's JSON Schemas (json-schema-to-typescript)
 * into connectors/<type>/types.generated.ts, plus the `entity.action` type map the typed facade uses.
 *
 *   npm run gen:types            write the files
 *   npm run gen:types -- --check fail (exit 1) when a committed file is stale
 *   npm run gen:types -- --connector <module> [--check]
 *                                a connector package outside connectors/ (a plugin): its types go to
 *                                types.generated.ts beside the module
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import type { ConnectorDefinition } from '../core/sdk/index.ts';
import { renderConnectorTypes } from './connector-types.ts';
import { renderServerTypes, SERVER_SCHEMA_DIR, SERVER_TYPES_FILE } from './server-types.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  const options = new Command()
    .option('--check', 'fail when a generated file is stale instead of writing it')
    .option('--connector <module>', 'a connector module outside connectors/ (relative to the working directory)')
    .parse()
    .opts<{ check?: boolean; connector?: string }>();
  const check = options.check === true;
  const manifests = options.connector
    ? [resolve(process.env.INIT_CWD ?? process.cwd(), options.connector)]
    : (await readdir(join(root, 'connectors'))).map((dir) => join(root, 'connectors', dir, 'index.ts')).filter((path) => existsSync(path));
  const stale: string[] = [];
  for (const manifest of manifests) {
    const definition = (await import(pathToFileURL(manifest).href)).default as ConnectorDefinition;
    const target = join(dirname(manifest), 'types.generated.ts');
    if (await syncGenerated(target, await renderConnectorTypes(definition), check)) stale.push(target);
  }
  if (!options.connector) {
    const target = join(root, SERVER_TYPES_FILE);
    if (await syncGenerated(target, await renderServerTypes(join(root, SERVER_SCHEMA_DIR)), check)) stale.push(target);
  }
  if (stale.length > 0) {
    console.error(`Generated types are stale; run \`npm run gen:types\`:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  if (check) console.log('generated types are up to date');
}

/** Writes `text` to `target` when it differs, or with `check` only answers whether it differs (is stale). */
async function syncGenerated(target: string, text: string, check: boolean): Promise<boolean> {
  const current = existsSync(target) ? await readFile(target, 'utf8') : '';
  if (current === text) return false;
  if (check) return true;
  await writeFile(target, text);
  console.log(`wrote ${target}`);
  return false;
}

await main();
