/**
 * `npm run specs:fetch` against a local HTTP server standing in for the official sources
 * (PLUGBOARD_SPECS_MIRROR): small made-up documents everywhere, and the real originals wherever a
 * specs folder is found, whose derived variants must come out as the conformance tests know them.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { listen } from '../testing/index.ts';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVE_PREFIXED_FILE, driveConvertedFile, SLACK_NOTOKEN_FILE, SPEC_SOURCES } from '../scripts/specs/sources.ts';
import { runScript } from './helpers/server-process.ts';
import { findSpecsFolder, SPECS_REQUIRED } from './helpers/shared-specs.ts';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plugboard-specs-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Serves the files under `root` by path; anything else is a 404. */
async function serveFolder(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(root)) return void res.writeHead(400).end();
    readFile(path).then(
      (bytes) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes),
      () => res.writeHead(404).end('not found'),
    );
  });
  return { url: `${await listen(server)}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function fetchSpecs(mirror: string, into: string) {
  return runScript(['scripts/specs-fetch.ts', '--dir', into], { PLUGBOARD_SPECS_MIRROR: mirror });
}

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

const SLACK = {
  swagger: '2.0',
  basePath: '/api',
  paths: {
    '/users.list': {
      get: {
        operationId: 'users_list',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        parameters: [
          { name: 'token', in: 'query', required: true, type: 'string' },
          { name: 'limit', in: 'query', type: 'integer' },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
    '/chat.postMessage': {
      post: {
        operationId: 'chat_postMessage',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        parameters: [
          { name: 'token', in: 'header', required: true, type: 'string' },
          { name: 'channel', in: 'formData', required: true, type: 'string' },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
  definitions: {},
};

const DISCOVERY = {
  kind: 'discovery#restDescription',
  discoveryVersion: 'v1',
  protocol: 'rest',
  id: 'drive:v3',
  name: 'drive',
  version: 'v3',
  revision: '20990101',
  title: 'Made-up Drive API',
  description: 'A Discovery document small enough to read.',
  ownerDomain: 'google.com',
  ownerName: 'Google',
  rootUrl: 'https://www.googleapis.com/',
  servicePath: 'drive/v3/',
  parameters: { fields: { type: 'string', location: 'query' }, alt: { type: 'string', location: 'query', default: 'json', enum: ['json', 'media'] } },
  schemas: { File: { id: 'File', type: 'object', properties: { id: { type: 'string' }, size: { type: 'string', format: 'int64' } } } },
  resources: {
    files: {
      methods: {
        get: {
          id: 'drive.files.get',
          path: 'files/{fileId}',
          httpMethod: 'GET',
          parameters: { fileId: { type: 'string', location: 'path', required: true } },
          parameterOrder: ['fileId'],
          response: { $ref: 'File' },
        },
      },
    },
  },
};

describe('specs:fetch with made-up documents', () => {
  it('downloads every original from the mirror and derives the variants the tests read', async () => {
    const source = join(work, 'made-up');
    const target = join(work, 'made-up-cache');
    const files: Record<string, string> = {
      'slack_web_openapi_v2.json': JSON.stringify(SLACK),
      'drive-v3-discovery.json': JSON.stringify(DISCOVERY),
      'airbyte/api_sdk.yaml': 'openapi: 3.1.0\ninfo: {title: sdk, version: "1"}\npaths: {}\n',
      'airbyte/api.yaml': 'openapi: 3.1.0\ninfo: {title: api, version: "1"}\npaths: {}\n',
      'airbyte/config.yaml': 'openapi: 3.0.0\ninfo: {title: config, version: "1"}\npaths: {}\n',
    };
    expect(Object.keys(files).sort()).toEqual(SPEC_SOURCES.map((s) => s.file).sort());
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(source, file)), { recursive: true });
      await writeFile(join(source, file), text);
    }
    const mirror = await serveFolder(source);
    try {
      const run = await fetchSpecs(mirror.url, target);
      expect(run.code, run.stderr).toBe(0);
      // Each original differs from the copy the tests were checked against, and says so.
      expect(run.stderr.match(/differs from the copy/g)).toHaveLength(SPEC_SOURCES.length);
      for (const [file, text] of Object.entries(files)) expect(await readFile(join(target, file), 'utf8')).toBe(text);

      const slack = await readJson(join(target, SLACK_NOTOKEN_FILE));
      expect(slack.paths['/users.list'].get.parameters).toEqual([{ name: 'limit', in: 'query', type: 'integer' }]);
      expect(slack.paths['/users.list'].post).toEqual({
        operationId: 'users_list_post',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [{ name: 'limit', in: 'formData', type: 'integer' }],
        responses: { 200: { description: 'ok' } },
      });
      expect(slack.paths['/chat.postMessage']).toEqual({
        post: { ...SLACK.paths['/chat.postMessage'].post, parameters: [{ name: 'channel', in: 'formData', required: true, type: 'string' }] },
      });

      const converted = await readJson(join(target, driveConvertedFile('20990101')));
      expect(converted.openapi).toBe('3.0.0');
      expect(Object.keys(converted.paths)).toEqual(['/files/{fileId}']);
      const prefixed = await readJson(join(target, DRIVE_PREFIXED_FILE));
      expect(Object.keys(prefixed.paths)).toEqual(['/drive/v3/files/{fileId}']);
      expect(prefixed.servers).toEqual([{ url: '/' }]);
      expect(prefixed.paths['/drive/v3/files/{fileId}'].get.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/File',
      });
      expect(prefixed.components.schemas.File.properties.size).toEqual({ type: 'string', format: 'int64' });
    } finally {
      await mirror.close();
    }
  });

  it('fails with one line naming the source it could not get, and writes no half file', async () => {
    const empty = join(work, 'empty');
    await mkdir(empty, { recursive: true });
    const target = join(work, 'empty-cache');
    const mirror = await serveFolder(empty);
    try {
      const run = await fetchSpecs(mirror.url, target);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(`specs:fetch failed: ${mirror.url}slack_web_openapi_v2.json: HTTP 404`);
      expect(existsSync(join(target, 'slack_web_openapi_v2.json'))).toBe(false);
    } finally {
      await mirror.close();
    }
  });
});

const originals = findSpecsFolder('drive-v3-discovery.json');
if (!originals && !SPECS_REQUIRED) {
  process.stderr.write('specs:fetch test on the official originals skipped: no specs folder found; run npm run specs:fetch\n');
}

describe.skipIf(!originals && !SPECS_REQUIRED)('specs:fetch with the official originals', () => {
  it('reproduces the derived variants the conformance tests read', async () => {
    expect(originals, 'no specs folder with the official originals (PLUGBOARD_REQUIRE_SPECS=1)').toBeDefined();
    const folder = originals!;
    const target = join(work, 'official-cache');
    const mirror = await serveFolder(folder);
    try {
      const run = await fetchSpecs(mirror.url, target);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      for (const { file } of SPEC_SOURCES) expect((await readFile(join(target, file))).equals(await readFile(join(folder, file))), file).toBe(true);
      const discovery = await readJson(join(folder, 'drive-v3-discovery.json'));
      for (const file of [SLACK_NOTOKEN_FILE, driveConvertedFile(discovery.revision), DRIVE_PREFIXED_FILE]) {
        expect(isDeepStrictEqual(await readJson(join(target, file)), await readJson(join(folder, file))), file).toBe(true);
      }
    } finally {
      await mirror.close();
    }
  });
});
