/**
 * `npm run new-connector` as a connector's authors use it: the package it writes, outside the
 * repository, type-checks, passes its own tests (the connector kit on its sandbox), keeps its generated
 * types fresh, and is served by the hosted server through PLUGBOARD_CONNECTORS.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedPluginConnector } from './helpers/hosted-plugin.ts';
import { startServerProcess } from './helpers/server-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const TOKEN = 'walkthrough-token';

let workspace: string;
let project: string;
let scaffold: ReturnType<typeof spawnSync>;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'plugboard-new-connector-')));
  project = join(workspace, 'issue-tracker');
  scaffold = spawnSync(TSX, ['scripts/new-connector.ts', 'issue-tracker', '--entity', 'issues', '--dir', project], { cwd: ROOT, encoding: 'utf8' });
  // `npm install` in the package would add vitest beside the plugboard link the scaffold made.
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
}, 60_000);

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('npm run new-connector -- issue-tracker --entity issues', () => {
  it('writes a package with a definition, schemas, generated types, a sandbox, a kit test and a README', () => {
    expect(scaffold.status, String(scaffold.stderr)).toBe(0);
    for (const file of [
      'package.json',
      'index.ts',
      'schemas/params/issues.list.json',
      'schemas/params/issues.get.json',
      'schemas/params/issues.create.json',
      'schemas/records/issue.json',
      'types.generated.ts',
      'sandbox/index.ts',
      'test/connector.test.ts',
      'README.md',
    ]) {
      expect(existsSync(join(project, file)), file).toBe(true);
    }
    expect(readFileSync(join(project, 'types.generated.ts'), 'utf8')).toContain('export type IssueTrackerTypes');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies.plugboard).toMatch(/^file:/);
  });

  it('type-checks against plugboard, plugboard/sdk and plugboard/testing', () => {
    const tsc = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('passes its own tests as generated: every kit check on its sandbox', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(0);
    const passed = Number(/Tests\s+(\d+) passed/.exec(output)?.[1]);
    // Loads, 3 example checks, 2 missing-param 422s, 3 runs, 1 pagination, 4 error codes, the credential check, its own test.
    expect(passed, output).toBeGreaterThanOrEqual(15);
  }, 150_000);

  it('keeps its generated types fresh (gen:types --connector --check)', () => {
    const check = spawnSync(TSX, ['scripts/gen-types.ts', '--connector', join(project, 'index.ts'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('refuses a type that cannot name an environment variable, and a folder that is not empty', () => {
    const badType = spawnSync(TSX, ['scripts/new-connector.ts', 'Issue Tracker', '--dir', join(workspace, 'bad')], { cwd: ROOT, encoding: 'utf8' });
    expect(badType.status).toBe(1);
    expect(badType.stderr).toContain('must be lowercase letters');
    const taken = spawnSync(TSX, ['scripts/new-connector.ts', 'issue-tracker', '--dir', project], { cwd: ROOT, encoding: 'utf8' });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('is not empty');
  });

  it('is served by the hosted server through PLUGBOARD_CONNECTORS, calling its sandbox', async () => {
    const { IssueTrackerSandbox } = (await import(pathToFileURL(join(project, 'sandbox/index.ts')).href)) as {
      IssueTrackerSandbox: { start(options: { token: string }): Promise<{ url: string; close(): Promise<void> }> };
    };
    const sandbox = await IssueTrackerSandbox.start({ token: TOKEN });
    const server = await startServerProcess({
      PLUGBOARD_DATA_DIR: join(workspace, 'data'),
      PLUGBOARD_CONNECTORS: join(project, 'index.ts'),
      PLUGBOARD_ISSUE_TRACKER_BASE_URL: sandbox.url,
    });
    try {
      expect(server.url, server.output.stderr).not.toBeNull();
      expect(server.output.stdout).toContain(`Connector issue-tracker 0.1.0 calls ${sandbox.url} (PLUGBOARD_ISSUE_TRACKER_BASE_URL)`);
      const refused = await storedPluginConnector(server, 'issue-tracker', { token: 'wrong' });
      expect(refused.created.statusCode).toBe(400);
      expect(JSON.parse(refused.created.body)).toMatchObject({ error_code: 'credentials_rejected' });
      const { created, execute } = await storedPluginConnector(server, 'issue-tracker', { token: TOKEN });
      expect(created.statusCode, created.body).toBe(201);
      const listed = await execute({ entity: 'issues', action: 'list', params: { limit: 2 } });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(JSON.parse(listed.body)).toMatchObject({ result: [{ id: '25' }, { id: '24' }], connector_metadata: { next_cursor: expect.any(String) } });
    } finally {
      await server.stop();
      await sandbox.close();
    }
  });
});
