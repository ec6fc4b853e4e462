import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CloudError, CloudWorkspace, InputError } from '../core/cloud-client/index.ts';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { RestUpstream } from '../testing/index.ts';
import { bearer, type HostedFixture, startHostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';

/**
 * The cloud client (and `plugboard cloud definitions`) with Airbyte manifests, against Plugboard's own
 * server: a manifest the interpreter cannot run is an InputError before any call; one it can run is
 * published with testing values (kept in its builder project), then a source of it deployed by its
 * definition id, checked, a connection synced, and the tables and the state read back.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = fileURLToPath(new URL('../scripts/plugboard.mjs', import.meta.url));
const MANIFEST_PATH = fileURLToPath(new URL('./fixtures/manifests/source-tracker/manifest.yaml', import.meta.url));
const UNSUPPORTED_PATH = fileURLToPath(new URL('./fixtures/manifests/unsupported.yaml', import.meta.url));
const MANIFEST_YAML = readFileSync(MANIFEST_PATH, 'utf8');
const KEY = 'tracker-key-client-2b8f';
const TESTING_KEY = 'testing-key-client-7a0c';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('Airbyte manifests through the cloud client', { timeout: 60_000 }, () => {
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let workspace: CloudWorkspace;
  let workspaceId: string;
  let env: Record<string, string>;
  let dir: string;
  let config: Record<string, unknown>;

  /** `plugboard cloud <args>` as a child process, `input` on its stdin. */
  const cli = (args: string[], input = ''): Promise<Run> => {
    const child = spawn(process.execPath, [BIN, 'cloud', ...args], {
      cwd: ROOT,
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PLUGBOARD_'))), ...env },
    });
    const run: Run = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
    child.stdin.end(input);
    return new Promise((resolve) => child.once('close', (code) => resolve({ ...run, code })));
  };

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 90, projects: 2, tasksPerProject: 3, auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY } });
    fx = await startHostedFixture('sqlite');
    const token = await publicAccessToken(fx);
    workspaceId = (await fx.http.post('v1/workspaces', { headers: bearer(token), json: { name: 'client-manifests' } }).json<{ workspaceId: string }>())
      .workspaceId;
    const apiRoot = `${fx.server.url}/v1`;
    workspace = new CloudWorkspace({
      workspaceId,
      clientId: fx.clientId,
      clientSecret: fx.clientSecret,
      apiRoot,
      localRoot: workspaceDataDir(fx.dataDir, workspaceId),
    });
    env = {
      PLUGBOARD_CLOUD_CLIENT_ID: fx.clientId,
      PLUGBOARD_CLOUD_CLIENT_SECRET: fx.clientSecret,
      PLUGBOARD_CLOUD_API_URL: apiRoot,
      PLUGBOARD_CLOUD_WORKSPACE_ID: workspaceId,
    };
    config = { base_url: upstream.url, api_key: KEY, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T01:00:00Z' };
    dir = mkdtempSync(join(tmpdir(), 'plugboard-manifest-client-'));
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a manifest the interpreter cannot run with an InputError naming its problems, before any call', async () => {
    // A root nothing listens on: any call would be a CloudError, not an InputError.
    const offline = new CloudWorkspace({ workspaceId, clientId: fx.clientId, clientSecret: fx.clientSecret, apiRoot: 'http://127.0.0.1:9/v1' });
    const refused = await offline.publishCustomSourceDefinition('bad', { manifestYaml: readFileSync(UNSUPPORTED_PATH, 'utf8') }).catch((error) => error);
    expect(refused).toBeInstanceOf(InputError);
    expect(refused.message).toMatch(/streams\[0\]\.retriever\.paginator\.pagination_strategy: CustomPaginationStrategy/);
    expect(refused.message).toMatch(/AsyncRetriever/);
    expect(refused.message).not.toContain('\n');
    // A manifest that loads goes on to the server (here: none, hence a CloudError).
    await expect(offline.publishCustomSourceDefinition('good', { manifestYaml: MANIFEST_YAML })).rejects.not.toBeInstanceOf(InputError);
    await expect(offline.publishCustomSourceDefinition('good', { manifestYaml: MANIFEST_YAML })).rejects.toBeInstanceOf(CloudError);
    // Without preValidate, the server judges it: a 400 naming the same component.
    const judged = await workspace
      .publishCustomSourceDefinition('bad', { manifestYaml: readFileSync(UNSUPPORTED_PATH, 'utf8') }, { preValidate: false })
      .catch((error) => error);
    expect([judged.status, judged.message]).toEqual([400, expect.stringMatching(/CustomPaginationStrategy/)]);
  });

  it('publishes with testing values, deploys a source by the definition id, syncs it and reads the tables and the state back', async () => {
    const definition = await workspace.publishCustomSourceDefinition(
      'tracker',
      { manifestYaml: MANIFEST_YAML },
      { testingValues: { ...config, api_key: TESTING_KEY } },
    );
    expect(definition).toMatchObject({ name: 'tracker', definitionType: 'yaml', version: 1, manifest: parse(MANIFEST_YAML) });
    const [row] = await fx.server.hosted.cloudDb.all<{ definition_id: string; ciphertext: string }>('SELECT * FROM cloud_builder_testing_values');
    expect(row?.definition_id).toBe(definition.definitionId);
    expect(row?.ciphertext).not.toContain(TESTING_KEY);
    await expect(workspace.publishCustomSourceDefinition('tracker', { manifestYaml: MANIFEST_YAML })).rejects.toThrow(/already exists/);

    const source = await workspace.deploySource('tracker source', { configuration: config, definitionId: definition.definitionId });
    expect(await source.definitionId()).toBe(definition.definitionId);
    expect(await source.configuration()).toMatchObject({ api_key: '**********', base_url: upstream.url });
    expect((await source.checkConnection()).status).toBe('succeeded');

    const destination = await workspace.deployDestination('file', { destinationType: 'sqlite', destination_path: '/local/client-manifest.sqlite' });
    const connection = await workspace.deployConnection('tracker to file', {
      source,
      destination,
      selectedStreams: ['items', 'items_updated'],
      tablePrefix: 'c_',
    });
    const result = await connection.runSync({ wait: true, waitTimeout: 120 });
    try {
      expect(await result.recordsSynced()).toBe(90 + 60);
      expect(await result.getSqlTableName('items_updated')).toBe('c_items_updated');
      const rows = await (await result.getDataset('items_updated')).toArray();
      expect(rows.map((record) => record.id)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
      expect(rows[0]).toMatchObject({ id: 1, name: 'item 1', tags: ['red', 'blue'], metrics: { views: 0, score: 0 } });
    } finally {
      await result.close();
    }
    expect(await connection.getStateArtifacts()).toEqual([
      { streamDescriptor: { name: 'items_updated' }, streamState: { updated_at: '2024-01-01T00:59:00Z' } },
    ]);
  });

  it('`plugboard cloud definitions publish` publishes a manifest file with testing values from stdin, and lists it', async () => {
    const published = await cli(
      ['definitions', 'publish', '--name', 'tracker from the CLI', '--manifest', MANIFEST_PATH, '--testing-values', '@-', '--json'],
      JSON.stringify({ ...config, api_key: TESTING_KEY }),
    );
    expect(published.code, published.stderr).toBe(0);
    const info = JSON.parse(published.stdout);
    expect(info).toMatchObject({ definitionId: expect.any(String), name: 'tracker from the CLI', version: 1 });
    const listed = await cli(['definitions', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(info.definitionId);
    expect(listed.stdout).toContain('tracker from the CLI');
    const shown = await cli(['definitions', 'get', info.definitionId]);
    expect(shown.stdout).toMatch(/version: +1/);
    const fromStdin = await cli(['definitions', 'publish', '--name', 'piped', '--manifest', '-'], MANIFEST_YAML);
    expect([fromStdin.code, fromStdin.stdout]).toEqual([0, expect.stringMatching(/^Published definition [0-9a-f-]+ \("piped", version 1\)\.\n$/)]);
    for (const run of [published, listed, shown, fromStdin]) expect(run.stdout + run.stderr).not.toContain(TESTING_KEY);
  });

  it('`plugboard cloud definitions publish` reports a manifest it cannot run, or a file it cannot read, in one line (exit 1)', async () => {
    for (const [args, pattern] of [
      [['--manifest', UNSUPPORTED_PATH], /cannot run on Plugboard: .*CustomPaginationStrategy/],
      [['--manifest', join(dir, 'missing.yaml')], /--manifest: cannot read .*ENOENT/],
      [['--manifest', MANIFEST_PATH, '--testing-values', '{not json'], /--testing-values is not valid JSON/],
      [['--manifest', '-', '--testing-values', '@-'], /cannot both read stdin/],
    ] as const) {
      const run = await cli(['definitions', 'publish', '--name', 'refused', ...args]);
      expect(run.code, run.stdout).toBe(1);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^plugboard cloud: /);
      expect(lines[0]).toMatch(pattern);
    }
  });
});
