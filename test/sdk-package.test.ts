/**
 * The SDK as a package and plugins on the hosted server, tried as a connector's authors would: their
 * package lives outside the repository and imports only `plugboard/sdk` (node_modules/plugboard links
 * to this checkout, where an install would put it). It type-checks there with a minimal tsconfig, and
 * `npm start` run from there serves it through PLUGBOARD_CONNECTORS, calling the upstream that
 * PLUGBOARD_ISSUE_TRACKER_BASE_URL names; a plugin that cannot be loaded refuses the start in one line.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { listen } from '../testing/index.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorVersion } from '../core/plugins/connector-version.ts';
import weather from './fixtures/weather-connector/index.ts';
import { storedPluginConnector } from './helpers/hosted-plugin.ts';
import { startServerProcess } from './helpers/server-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TOKEN = 'tracker-token-1';

/** The plugin's project directory, outside the repository. */
let project: string;
let upstream: Server;
let upstreamUrl: string;
const upstreamCalls: string[] = [];

beforeAll(async () => {
  // realpath: the server names what it tried as the working directory it sees (macOS links /tmp).
  project = realpathSync(mkdtempSync(join(tmpdir(), 'plugboard-plugin-')));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'plugboard'), 'dir');
  cpSync(fileURLToPath(new URL('./fixtures/issue-tracker-plugin/', import.meta.url)), join(project, 'issue-tracker'), { recursive: true });
  writeFileSync(
    join(project, 'issue-tracker', 'package.json'),
    JSON.stringify({ name: 'issue-tracker-connector', private: true, type: 'module', exports: './index.ts' }),
  );
  const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true, strict: true };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['issue-tracker'] }));

  upstream = createServer((req, res) => {
    upstreamCalls.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{"error":"bad_token"}');
    if (req.url === '/v1/issues/7') return void res.end(JSON.stringify({ issue: { id: '7', title: 'Plugins on the hosted server' } }));
    res.writeHead(404).end('{"error":"issue_not_found"}');
  });
  upstreamUrl = `${await listen(upstream)}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(project, { recursive: true, force: true });
});

describe('a connector package outside the repository', () => {
  it('type-checks against plugboard/sdk with a minimal tsconfig', () => {
    const tsc = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('is served by the hosted server through PLUGBOARD_CONNECTORS (a path from the working directory)', async () => {
    const server = await startServerProcess(
      {
        PLUGBOARD_DATA_DIR: join(project, 'data'),
        PLUGBOARD_CONNECTORS: './issue-tracker/index.ts',
        PLUGBOARD_ISSUE_TRACKER_BASE_URL: upstreamUrl,
        PLUGBOARD_CHAT_BASE_URL: 'http://127.0.0.1:9/api',
      },
      { cwd: project },
    );
    try {
      expect(server.url, server.output.stderr).not.toBeNull();
      expect(server.output.stdout.split('\n').filter((line) => line.startsWith('Connector '))).toEqual([
        'Connector chat unversioned calls http://127.0.0.1:9/api (PLUGBOARD_CHAT_BASE_URL)',
        'Connector file-storage unversioned calls https://www.googleapis.com (default; PLUGBOARD_FILE_STORAGE_BASE_URL unset)',
        `Connector issue-tracker unversioned calls ${upstreamUrl} (PLUGBOARD_ISSUE_TRACKER_BASE_URL)`,
      ]);

      const { created, id, execute: run } = await storedPluginConnector(server, 'issue-tracker', { token: TOKEN });
      expect(created.statusCode, created.body).toBe(201);
      const execute = (params: Record<string, unknown>) => run({ entity: 'issues', action: 'get', params });
      const found = await execute({ id: '7' });
      expect(found.statusCode, found.body).toBe(200);
      expect(JSON.parse(found.body)).toMatchObject({
        status: 'success',
        result: { id: '7', title: 'Plugins on the hosted server', state: null },
        execution_metadata: { connector_id: id },
      });
      const missing = await execute({ id: '8' });
      expect(missing.statusCode).toBe(404);
      expect(JSON.parse(missing.body)).toMatchObject({ error_code: 'issue_not_found' });
      expect(upstreamCalls).toEqual([`GET /v1/issues/7 Bearer ${TOKEN}`, `GET /v1/issues/8 Bearer ${TOKEN}`]);
    } finally {
      await server.stop();
    }
  });

  it('a plugin that cannot be loaded refuses the start in one line naming what was tried, before the data directory is made', async () => {
    const dataDir = join(project, 'refused-data');
    const refused = await startServerProcess({ PLUGBOARD_DATA_DIR: dataDir, PLUGBOARD_CONNECTORS: './nope' }, { cwd: project });
    expect(refused.url, refused.output.stdout).toBeNull();
    expect(refused.exitCode).toBe(1);
    const lines = refused.output.stderr.split('\n');
    expect(lines, refused.output.stderr).toHaveLength(2);
    const prefix = `Plugboard did not start: PLUGBOARD_CONNECTORS: cannot load connector "./nope": the module cannot be imported (tried ${join(project, 'nope')}): `;
    expect(lines[0]!.slice(0, prefix.length)).toBe(prefix);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('the version the start-up log gives a connector', () => {
  it('is the definition\'s own, else its package\'s when loaded by package name, else "unversioned"', () => {
    // Any installed package shows the look-up: a connector's would be found the same way.
    const installed = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    expect(connectorVersion('pino', weather)).toBe(installed('pino'));
    expect(connectorVersion('@koa/cors/index.js', weather)).toBe(installed('@koa/cors'));
    expect(connectorVersion('no-such-package', weather)).toBe('unversioned');
    expect(connectorVersion('./test/fixtures/weather-connector/index.ts', weather)).toBe('unversioned');
    const declared = { ...weather, version: '2.0.0' };
    expect(connectorVersion('pino', declared)).toBe('2.0.0');
  });
});
