/**
 * An Airbyte manifest as an in-process connector: loaded by path or as a package, its streams as
 * entities with list (paged by cursor, resumable from saved state) and get, its spec as the
 * configuration, its check stream as the credential check, and search over a local context store.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileManifestConnector } from '../core/manifests/connector/compile-manifest.ts';
import { airbyteManifest } from '../core/sdk/index.ts';
import { ConnectorLoadError, createRuntime, PlugboardError, type PlugboardRuntime, ValidationError } from '../index.ts';
import { RestUpstream } from '../testing/index.ts';

const MANIFEST_PATH = './test/fixtures/manifests/source-tracker/manifest.yaml';
const KEY = 'tracker-key-7f3a';
let upstream: RestUpstream;
let runtime: PlugboardRuntime;
let config: Record<string, unknown>;

beforeAll(async () => {
  upstream = await RestUpstream.start({ items: 230, projects: 3, tasksPerProject: 7, auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY } });
  runtime = await createRuntime({ builtins: false, connectors: [MANIFEST_PATH], validateRecords: 'throw' });
  config = { base_url: upstream.url, api_key: KEY, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T03:00:00Z' };
});
afterAll(() => upstream.close());

async function failure(promise: Promise<unknown>): Promise<PlugboardError> {
  try {
    await promise;
  } catch (error) {
    return error as PlugboardError;
  }
  throw new Error('expected a failure');
}

describe('a manifest loaded as a connector', () => {
  it('is named after its folder, with each stream an entity (names folded to identifiers)', () => {
    expect(runtime.connectorTypes()).toEqual(['tracker']);
    const plugin = runtime.plugin('tracker');
    expect(plugin.entities()).toEqual(['items', 'projects', 'tasks', 'items_updated']);
    expect(plugin.actionsOf('items')).toEqual(['list', 'get', 'search']);
    // A substream has no path of its own to append an id to.
    expect(plugin.actionsOf('tasks')).toEqual(['list', 'search']);
    expect(plugin.definition.config).toMatchObject({ required: ['base_url', 'api_key', 'start_date'] });
  });

  it('loads from a package that exports airbyteManifest(...) as well', async () => {
    const text = readFileSync(MANIFEST_PATH, 'utf8');
    const packaged = airbyteManifest(text, { type: 'tracker-pkg' });
    const plugin = compileManifestConnector(packaged.manifest, packaged.type);
    expect(plugin.type).toBe('tracker-pkg');
    expect(plugin.entities()).toContain('items_updated');
  });

  it('refuses a manifest with Python components at load, naming the component and its place', async () => {
    const error = await failure(createRuntime({ builtins: false, connectors: ['./test/fixtures/manifests/unsupported.yaml'] }));
    expect(error).toBeInstanceOf(ConnectorLoadError);
    expect((error as unknown as ConnectorLoadError).problems.join('\n')).toMatch(/CustomAuthenticator.*Python/);
  });

  it('lists a page, and pages on by cursor until the stream ends', async () => {
    const client = runtime.connector('tracker', { config });
    const first = await client.items.list({ limit: 100 });
    expect(first.result.map((item: { id: number }) => item.id)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(first.connector_metadata.next_cursor).toEqual(expect.any(String));
    const ids: number[] = [];
    for await (const item of client.paginate({ entity: 'items', action: 'list', params: { limit: 60 } })) ids.push((item as { id: number }).id);
    expect(ids).toEqual(Array.from({ length: 230 }, (_, index) => index + 1));
  });

  it('resumes a cursor by reading again when its paused read is gone (another instance, a restart)', async () => {
    const first = await runtime.connector('tracker', { config }).items.list({ limit: 70 });
    const other = runtime.connector('tracker', { config });
    const before = upstream.requests.length;
    const second = await other.items.list({ limit: 70, cursor: first.connector_metadata.next_cursor });
    expect(second.result[0].id).toBe(71);
    expect(second.result.at(-1).id).toBe(140);
    // Read again from the first page: 50 per upstream page, three pages to reach record 140.
    expect(upstream.requests.length - before).toBe(3);
  });

  it('answers 400 invalid_cursor for a cursor it never gave', async () => {
    const error = await failure(runtime.connector('tracker', { config }).items.list({ cursor: 'not-a-cursor' }));
    expect([error.status, error.error_code]).toEqual([400, 'invalid_cursor']);
  });

  it('gets one record by its id from the stream path followed by the id, 404 when there is none', async () => {
    const client = runtime.connector('tracker', { config });
    const before = upstream.requests.length;
    const { result } = await client.items.get({ id: 5 });
    expect(result).toMatchObject({ id: 5, name: 'item 5' });
    expect(upstream.requests.slice(before).map((request) => request.path)).toEqual(['/api/items/5']);
    const missing = await failure(client.items.get({ id: 99_999 }));
    expect(missing.status).toBe(404);
  });

  it('reads a substream parent by parent', async () => {
    const { result } = await runtime.connector('tracker', { config }).tasks.list({ limit: 1000 });
    expect(result).toHaveLength(21);
    expect(new Set(result.map((task: { project_id: number }) => task.project_id))).toEqual(new Set([1, 2, 3]));
  });

  it('answers an incremental stream with its state, and reads only what is newer from it', async () => {
    const client = runtime.connector('tracker', { config: { ...config, end_date: '2024-01-01T02:00:00Z' } });
    const first = await client.items_updated.list({ limit: 1000 });
    expect(first.result).toHaveLength(120);
    const state = first.connector_metadata.state;
    expect(state).toEqual({ updated_at: '2024-01-01T01:59:00Z' });
    const later = runtime.connector('tracker', { config: { ...config, end_date: '2024-01-01T03:00:00Z' } });
    const next = await later.items_updated.list({ limit: 1000, state });
    // As Airbyte's cursor does, the read starts at the saved cursor itself: the boundary record comes again (at least once).
    expect(next.result[0].id).toBe(120);
    expect(next.result).toHaveLength(61);
    // Airbyte's own state message for the stream is taken as well.
    const message = { type: 'STREAM', stream: { stream_descriptor: { name: 'items_updated' }, stream_state: state } };
    expect((await later.items_updated.list({ limit: 1000, state: message })).result).toHaveLength(61);
  });

  it("checks credentials with the manifest's check stream: accepted, or 400 credentials_rejected", async () => {
    expect(await runtime.connector('tracker', { config }).checkCredentials()).toBe('accepted');
    const refused = await failure(runtime.connector('tracker', { config: { ...config, api_key: 'wrong-key-123' } }).checkCredentials());
    expect([refused.status, refused.error_code]).toEqual([400, 'credentials_rejected']);
    expect(JSON.stringify(refused)).not.toContain('wrong-key-123');
  });

  it('refuses a configuration its spec refuses with a 422 per field, never echoing a value', async () => {
    let error: unknown;
    try {
      runtime.connector('tracker', { config: { base_url: upstream.url, api_key: 12345, start_date: 'secret-looking' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((issue) => issue.loc.join('.'))).toEqual(expect.arrayContaining(['config.api_key', 'config.start_date']));
    expect(JSON.stringify(issues)).not.toContain('12345');
  });

  it('refuses unknown params and answers upstream failures in the documented shape', async () => {
    const client = runtime.connector('tracker', { config });
    const unknown = await failure(client.items.list({ page: 2 } as never));
    expect(unknown.status).toBe(422);
    upstream.fail({ path: '/api/items', status: 400 });
    const error = await failure(client.items.list({ limit: 1 }));
    expect(error).toBeInstanceOf(PlugboardError);
    expect([error.status, error.error_code]).toEqual([400, 'upstream_http_400']);
  });
});

describe('a manifest with a local context store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'manifest-store-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replicates its streams and searches them', async () => {
    const client = runtime.connector('tracker', { config, context_store: { path: join(dir, 'store.db') } });
    const states = await client.replicate!();
    expect(states.items).toMatchObject({ status: 'ready' });
    const hits = await client.items.search({ query: { filter: { eq: { project_id: 2 } }, sort: [{ updated_at: 'asc' }] }, limit: 3 });
    expect(hits.result.hits.map((hit: { id: string }) => hit.id)).toEqual(['2', '5', '8']);
    const named = await client.items.search({ query: { filter: { like: { name: 'item 229' } } } });
    expect(named.result.hits.map((hit: { id: string }) => hit.id)).toEqual(['229']);
    await client.close!();
  });
});

describe('docs/airbyte-manifests.md', () => {
  it('names every component the loader supports', async () => {
    const { SUPPORTED_COMPONENTS } = await import('../core/manifests/index.ts');
    const doc = readFileSync(new URL('../docs/airbyte-manifests.md', import.meta.url), 'utf8');
    const missing = Object.keys(SUPPORTED_COMPONENTS).filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
