/**
 * `npm run new-connector` as a connector's authors use it: the package it writes, outside the
 * repository, type-checks, passes its own tests (the connector kit on its sandbox), keeps its generated
 * types fresh, and is served by the hosted server through PLUGBOARD_CONNECTORS. With --from-manifest,
 * the package of an Airbyte manifest does the same offline, and the kit's online checks when given an upstream.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorKit, RestUpstream } from '../testing/index.ts';
import { storedPluginConnector } from './helpers/hosted-plugin.ts';
import { startServerProcess } from './helpers/server-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const TOKEN = 'walkthrough-token';
const TRACKER_MANIFEST = join(ROOT, 'test/fixtures/manifests/source-tracker/manifest.yaml');

/** Runs the scaffold from the checkout, as `npm run new-connector -- <args>` does. */
const newConnector = (args: string[]) => spawnSync(TSX, ['scripts/new-connector.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

/** `npm install` in the package would add vitest beside the plugboard link the scaffold made. */
const linkVitest = (project: string) => symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');

function typeCheck(project: string) {
  const tsc = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', project], { encoding: 'utf8' });
  return { status: tsc.status, output: tsc.stdout + tsc.stderr };
}

/** The package's own `npm test`: its status, output and how many tests passed. */
function runPackageTests(project: string) {
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const output = run.stdout + run.stderr;
  return { status: run.status, output, passed: Number(/Tests\s+(\d+) passed/.exec(output)?.[1]) };
}

/** One of the package's scripts (`check:types`, `gen:types`), run from the package as npm would. */
function packageScript(project: string, name: string) {
  const scripts = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const [command, ...args] = scripts[name]!.split(' ');
  expect(command).toBe('tsx');
  return spawnSync(TSX, args, { cwd: project, encoding: 'utf8', env: { ...process.env, INIT_CWD: project } });
}

let workspace: string;
let project: string;
let scaffold: ReturnType<typeof spawnSync>;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'plugboard-new-connector-')));
  project = join(workspace, 'issue-tracker');
  scaffold = newConnector(['issue-tracker', '--entity', 'issues', '--dir', project]);
  linkVitest(project);
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
    expect(typeCheck(project)).toEqual({ status: 0, output: '' });
  });

  it('passes its own tests as generated: every kit check on its sandbox', () => {
    const { status, output, passed } = runPackageTests(project);
    expect(status, output).toBe(0);
    // Loads, 3 example checks, 2 missing-param 422s, 3 runs, 1 pagination, 4 error codes, the credential check, its own test.
    expect(passed, output).toBeGreaterThanOrEqual(15);
  }, 150_000);

  it("runs its README's in-process example as written, against its sandbox", async () => {
    const example = /In-process[\s\S]*?```ts\n([\s\S]*?)```/.exec(readFileSync(join(project, 'README.md'), 'utf8'))![1]!;
    writeFileSync(join(project, 'readme-example.ts'), example);
    const sandbox = spawn(TSX, ['sandbox/main.ts'], { cwd: project, env: { ...process.env, SANDBOX_PORT: '4020' } });
    try {
      await new Promise<void>((resolve, reject) => {
        sandbox.stdout.on('data', (chunk: Buffer) => (String(chunk).includes('sandbox at') ? resolve() : undefined));
        sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
      });
      const run = spawnSync(TSX, ['readme-example.ts'], { cwd: project, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('id');
    } finally {
      sandbox.kill();
      rmSync(join(project, 'readme-example.ts'));
    }
  }, 60_000);

  it('keeps its generated types fresh (gen:types --connector --check)', () => {
    const check = spawnSync(TSX, ['scripts/gen-types.ts', '--connector', join(project, 'index.ts'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('refuses a type that cannot name an environment variable, and a folder that is not empty', () => {
    const badType = newConnector(['Issue Tracker', '--dir', join(workspace, 'bad')]);
    expect(badType.status).toBe(1);
    expect(badType.stderr).toContain('must be lowercase letters');
    const taken = newConnector(['issue-tracker', '--dir', project]);
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

describe('npm run new-connector -- --from-manifest source-tracker/manifest.yaml', () => {
  let manifestProject: string;
  let made: ReturnType<typeof spawnSync>;

  beforeAll(() => {
    manifestProject = join(workspace, 'tracker');
    made = newConnector(['--from-manifest', TRACKER_MANIFEST, '--dir', manifestProject]);
    linkVitest(manifestProject);
  }, 60_000);

  it('writes the manifest, an index.ts exporting it with airbyteManifest, generated types, a kit test and a README', () => {
    expect(made.status, String(made.stderr)).toBe(0);
    for (const file of ['package.json', 'tsconfig.json', 'index.ts', 'manifest.yaml', 'types.generated.ts', 'test/connector.test.ts', 'README.md']) {
      expect(existsSync(join(manifestProject, file)), file).toBe(true);
    }
    expect(readFileSync(join(manifestProject, 'manifest.yaml'), 'utf8')).toBe(readFileSync(TRACKER_MANIFEST, 'utf8'));
    const index = readFileSync(join(manifestProject, 'index.ts'), 'utf8');
    // The type is the manifest folder's (source-tracker → tracker); Plugboard is imported only as plugboard/sdk.
    expect(index).toContain("airbyteManifest(readFileSync(new URL('./manifest.yaml', import.meta.url), 'utf8'), { type: 'tracker' })");
    expect(index.match(/from '([^']+)'/g)).toEqual(["from 'node:fs'", "from 'plugboard/sdk'"]);
    const readme = readFileSync(join(manifestProject, 'README.md'), 'utf8');
    expect(readme).toContain('| `api_key` | string | yes | yes | API key |');
    expect(readme).toContain('| `items_updated` | items_updated | list, get, search | `id` | yes (`updated_at`) |');
    expect(readme).toContain(
      "runtime.connector<TrackerTypes>('tracker', { config: { base_url: '<API root>', api_key: '<API key>', start_date: '<Start date>' } })",
    );
    expect(readme).toContain('/definitions/declarative_sources');
  });

  it("generates types that name each stream's record fields, and the map the typed client reads", () => {
    const types = readFileSync(join(manifestProject, 'types.generated.ts'), 'utf8');
    expect(types).toMatch(/export interface ItemsRecord \{\n {2}id\?: number;\n {2}name\?: string \| null;/);
    expect(types).toMatch(/export interface TasksRecord \{\n {2}id\?: string;\n {2}project_id\?: number;/);
    expect(types).toContain("'items.list': { params: ListParams; result: ItemsRecord[]; meta: ListMeta };");
    expect(types).toContain("'items.get': { params: GetParams; result: ItemsRecord; meta: Record<string, never> };");
    expect(types).toContain("'tasks.list': { params: ListParams; result: TasksRecord[]; meta: ListMeta };");
  });

  it('type-checks, and passes its own tests as generated: the kit offline', () => {
    expect(typeCheck(manifestProject)).toEqual({ status: 0, output: '' });
    const { status, output, passed } = runPackageTests(manifestProject);
    expect(status, output).toBe(0);
    // Loads, 11 example checks (4 list, 3 get, 4 search), 3 missing-id 422s.
    expect(passed, output).toBe(15);
  }, 150_000);

  it("runs the kit's online checks too once given an upstream and a configuration pointing at it", async () => {
    const key = 'kit-key-4411';
    const kit = await connectorKit({
      connector: join(manifestProject, 'index.ts'),
      upstream: async () => {
        const upstream = await RestUpstream.start({ items: 120, projects: 3, tasksPerProject: 4, auth: { kind: 'api_key', header: 'X-Api-Key', key } });
        const config = { base_url: upstream.url, api_key: key, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T03:00:00Z' };
        return { config, close: () => upstream.close() };
      },
      skipRuns: { 'projects.get': 'the local upstream serves no /api/projects/{id}' },
    });
    const failures: string[] = [];
    try {
      for (const check of kit.checks) await check.run().catch((error: Error) => failures.push(`${check.name}: ${error.message}`));
    } finally {
      await kit.close();
    }
    expect(failures).toEqual([]);
    const names = kit.checks.map((check) => check.name);
    expect(names).toEqual(
      expect.arrayContaining(['items.get: runs against the upstream and its records match the record schema', 'tasks.list: pagination terminates']),
    );
    expect(names).toContain("the credential check (items.list) accepts the upstream's credentials");
  }, 60_000);

  it('keeps its generated types fresh: check:types fails once the manifest changes, gen:types brings them back', () => {
    expect(packageScript(manifestProject, 'check:types').status).toBe(0);
    const manifest = join(manifestProject, 'manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('done: { type: boolean }', 'done: { type: boolean }, due: { type: string }'));
    const stale = packageScript(manifestProject, 'check:types');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('Generated types are stale');
    expect(packageScript(manifestProject, 'gen:types').status).toBe(0);
    expect(readFileSync(join(manifestProject, 'types.generated.ts'), 'utf8')).toContain('due?: string;');
  }, 60_000);

  it('refuses a manifest Plugboard cannot run, naming each component at its place, and writes nothing', () => {
    const target = join(workspace, 'unsupported');
    const refused = newConnector(['--from-manifest', join(ROOT, 'test/fixtures/manifests/unsupported.yaml'), '--dir', target]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('nothing was written');
    expect(refused.stderr).toContain('- streams[0].retriever.requester.authenticator: CustomAuthenticator');
    expect(refused.stderr).toContain('- streams[1].retriever: AsyncRetriever is not supported');
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a missing manifest in one line, and a type that is not an identifier', () => {
    const missing = newConnector(['--from-manifest', join(workspace, 'nowhere/manifest.yaml'), '--dir', join(workspace, 'missing')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe(`new-connector: cannot read the manifest ${join(workspace, 'nowhere/manifest.yaml')}: no such file`);
    const badType = newConnector(['--from-manifest', TRACKER_MANIFEST, '--type', 'Tracker API', '--dir', join(workspace, 'bad-type')]);
    expect(badType.status).toBe(1);
    expect(badType.stderr).toContain('type "Tracker API" must be lowercase letters');
    expect(existsSync(join(workspace, 'missing')) || existsSync(join(workspace, 'bad-type'))).toBe(false);
  });
});
