/**
 * Fills the conformance tests' spec cache: downloads the official upstream API descriptions and
 * derives the variants the tests read.
 *
 *   npm run specs:fetch                       into .specs-cache/ (git-ignored)
 *   npm run specs:fetch -- --dir <folder>     elsewhere
 *   PLUGBOARD_SPECS_MIRROR=<url> npm run specs:fetch
 *                                             from <url>/<file> instead of the official addresses
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { driveOpenApi, withServicePath, type DiscoveryDocument } from './specs/drive-openapi.ts';
import { slackWithoutToken, type SlackSwagger } from './specs/slack-notoken.ts';
import {
  DRIVE_PREFIXED_FILE,
  driveConvertedFile,
  SLACK_NOTOKEN_FILE,
  SPEC_SOURCES,
  SPECS_CACHE_DIR,
  SPECS_MIRROR_VARIABLE,
  type SpecSource,
} from './specs/sources.ts';

const DOWNLOAD_TIMEOUT_MS = 120_000;

const { values } = parseArgs({ options: { dir: { type: 'string' } } });
const dir = values.dir ? resolve(process.env.INIT_CWD ?? process.cwd(), values.dir) : SPECS_CACHE_DIR;
const mirror = process.env[SPECS_MIRROR_VARIABLE];
const fromHere = relative(process.cwd(), dir);
const shown = fromHere.startsWith('..') ? dir : fromHere || '.';

function sourceUrl(source: SpecSource): string {
  return mirror ? new URL(source.file, mirror.endsWith('/') ? mirror : `${mirror}/`).href : source.url;
}

async function download(source: SpecSource): Promise<string> {
  const url = sourceUrl(source);
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }).catch((error: unknown) => {
    throw new Error(`${url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  // An HTML error page or a truncated file must not land in the cache looking like a spec.
  try {
    if (source.kind === 'json') JSON.parse(text);
    else if (!/^openapi:/m.test(text)) throw new Error('no openapi: line');
  } catch (error) {
    throw new Error(`${url}: not a ${source.kind.toUpperCase()} API description (${error instanceof Error ? error.message : String(error)})`);
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== source.sha256) console.warn(`warning: ${source.file} differs from the copy the conformance tests were checked against (sha256 ${digest})`);
  await save(source.file, bytes, url);
  return text;
}

/** Written beside and renamed, so an interrupted run never leaves half a file under the real name. */
async function save(file: string, content: string | Buffer, from: string): Promise<void> {
  const target = join(dir, file);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(`${target}.partial`, content);
  await rename(`${target}.partial`, target);
  console.log(`${join(shown, file)}  ${from}`);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function main(): Promise<void> {
  const texts = new Map<string, string>();
  for (const source of SPEC_SOURCES) texts.set(source.file, await download(source));
  const slack = JSON.parse(texts.get('slack_web_openapi_v2.json')!) as SlackSwagger;
  await save(SLACK_NOTOKEN_FILE, json(slackWithoutToken(slack)), 'derived: no token parameters, a form POST for every GET-only method');
  const discovery = JSON.parse(texts.get('drive-v3-discovery.json')!) as DiscoveryDocument;
  const revision = discovery.revision;
  const servicePath = discovery.servicePath.replace(/^\/+|\/+$/g, '');
  const converted = await driveOpenApi(discovery);
  await save(driveConvertedFile(revision), json(converted), 'derived: the Discovery document as OpenAPI 3.0');
  await save(DRIVE_PREFIXED_FILE, json(withServicePath(converted, servicePath)), `derived: every path under /${servicePath}`);
}

try {
  await main();
} catch (error) {
  console.error(`specs:fetch failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
