import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { RestUpstream, type UpstreamRequest } from '../testing/index.ts';
import { listen } from '../testing/sandbox-kit.ts';
import { BACKENDS, bearer, type HostedFixture, startHostedFixture } from './helpers/hosted-fixture.ts';
import { plainPublicApi, publicAccessToken } from './helpers/public-api-calls.ts';
import { testDestination, type TestDestination } from './helpers/sync-destinations.ts';

/**
 * Syncs of a source of an Airbyte manifest, through the public API into a destination: full refresh
 * and incremental streams land typed tables with the upstream's records; the incremental stream's
 * state is saved in Airbyte's per-stream format, shown and replaced through the config API's state
 * endpoints, and the next sync resumes from it (its first request starts at the saved cursor). A
 * manifest whose OAuth refresh tokens are single-use keeps each rotated one as the source's.
 */

const MANIFEST = parse(readFileSync(new URL('./fixtures/manifests/source-tracker/manifest.yaml', import.meta.url), 'utf8'));
const KEY = 'tracker-key-sync-41c7';
const START = '2024-01-01T00:00:00Z';

type Api = Awaited<ReturnType<typeof plainPublicApi>>;

/** Publishes the manifest in a new workspace and makes a source of it; its workspace, definition and source ids. */
async function manifestSource(api: Api, manifest: unknown, configuration: Record<string, unknown>) {
  const { workspaceId } = await api.call('post', 'v1/workspaces', { name: `manifest-sync-${Math.random().toString(36).slice(2, 8)}` });
  const definition = await api.call('post', `v1/workspaces/${workspaceId}/definitions/declarative_sources`, { name: 'tracker', manifest });
  const source = await api.call('post', 'v1/sources', { name: 'tracker', workspaceId, definitionId: definition.id, configuration });
  return { workspaceId: workspaceId as string, definitionId: definition.id as string, sourceId: source.sourceId as string };
}

/** The `updated_after` of the first window request among `requests` (the items_updated stream's reads). */
function firstWindowStart(requests: UpstreamRequest[]): string | undefined {
  return requests.find((request) => request.path === '/api/items' && request.query.updated_after !== undefined)?.query.updated_after;
}

describe.each(BACKENDS)('syncs of an Airbyte manifest source on %s', (backend) => {
  const destinationType = backend === 'postgres' ? 'postgres' : 'sqlite';
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let api: Api;
  let destination: TestDestination;
  let connectionId: string;
  let sourceId: string;

  const ids = async (table: string) => (await destination.rows(table)).map((row) => Number(row.id)).sort((a, b) => a - b);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
  const stateOf = () => api.call('post', 'api/v1/state/get', { connectionId });

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 230, projects: 3, tasksPerProject: 7, auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY } });
    fx = await startHostedFixture(backend);
    api = await plainPublicApi(fx);
    const config = { base_url: upstream.url, api_key: KEY, start_date: START, end_date: '2024-01-01T02:00:00Z' };
    const made = await manifestSource(api, MANIFEST, config);
    sourceId = made.sourceId;
    destination = await testDestination(destinationType, workspaceDataDir(fx.dataDir, made.workspaceId));
    const { destinationId } = await api.call('post', 'v1/destinations', {
      name: 'target',
      workspaceId: made.workspaceId,
      configuration: destination.configuration,
    });
    const connection = await api.call('post', 'v1/connections', {
      sourceId,
      destinationId,
      prefix: 'tracker_',
      configurations: {
        streams: [
          { name: 'items', syncMode: 'full_refresh_overwrite' },
          { name: 'Projects' },
          { name: 'tasks' },
          { name: 'items_updated', syncMode: 'incremental_deduped_history' },
        ],
      },
    });
    connectionId = connection.connectionId;
  });
  afterAll(async () => {
    await destination?.drop();
    await fx?.close();
    await upstream?.close();
  });

  it("syncs every stream into its table, typed by the stream's schema, and saves the incremental stream's state in Airbyte's format", async () => {
    const job = await api.sync(connectionId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(await ids('tracker_items')).toEqual(range(1, 230));
    expect(await destination.rows('tracker_Projects')).toHaveLength(3);
    const tasks = await destination.rows('tracker_tasks');
    expect(tasks.map((task) => task.id).sort()).toEqual([
      '1-1',
      '1-2',
      '1-3',
      '1-4',
      '1-5',
      '1-6',
      '1-7',
      '2-1',
      '2-2',
      '2-3',
      '2-4',
      '2-5',
      '2-6',
      '2-7',
      '3-1',
      '3-2',
      '3-3',
      '3-4',
      '3-5',
      '3-6',
      '3-7',
    ]);
    // The window ends at end_date: items updated before 02:00, a minute apart from 00:00.
    expect(await ids('tracker_items_updated')).toEqual(range(1, 120));
    const [row] = (await destination.rows('tracker_items')).filter((item) => Number(item.id) === 4);
    const metrics = typeof row!.metrics === 'string' ? JSON.parse(row!.metrics) : row!.metrics;
    expect([row!.name, row!.project_id === 1 || row!.project_id === 1n || row!.project_id === '1', metrics]).toEqual([
      'item 4',
      true,
      { views: 21, score: 0.3 },
    ]);
    expect(await stateOf()).toEqual({
      stateType: 'stream',
      connectionId,
      streamState: [{ streamDescriptor: { name: 'items_updated' }, streamState: { updated_at: '2024-01-01T01:59:00Z' } }],
    });
  });

  it('resumes the incremental stream from the saved state with a later end_date: its first request starts at the saved cursor', async () => {
    await api.call('patch', `v1/sources/${sourceId}`, { configuration: { end_date: '2024-01-01T03:00:00Z' } });
    const before = upstream.requests.length;
    const job = await api.sync(connectionId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const requests = upstream.requests.slice(before);
    expect(firstWindowStart(requests)).toBe('2024-01-01T01:59:00Z');
    // The boundary record comes again and is deduplicated by its key; the full refresh stream is replaced, not doubled.
    expect(await ids('tracker_items_updated')).toEqual(range(1, 180));
    expect(await ids('tracker_items')).toEqual(range(1, 230));
    expect((await stateOf()).streamState).toEqual([{ streamDescriptor: { name: 'items_updated' }, streamState: { updated_at: '2024-01-01T02:59:00Z' } }]);
  });

  it("takes a state in Airbyte's format through create_or_update_safe, and the next sync starts from it", async () => {
    const state = { updated_at: '2024-01-01T00:29:00Z' };
    const replaced = await api.call('post', 'api/v1/state/create_or_update_safe', {
      connectionId,
      connectionState: { stateType: 'stream', connectionId, streamState: [{ streamDescriptor: { name: 'items_updated' }, streamState: state }] },
    });
    expect(replaced.streamState).toEqual([{ streamDescriptor: { name: 'items_updated' }, streamState: state }]);
    const before = upstream.requests.length;
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    expect(firstWindowStart(upstream.requests.slice(before))).toBe('2024-01-01T00:29:00Z');
    expect(await ids('tracker_items_updated')).toEqual(range(1, 180));
  });

  it('refuses a state for a stream that keeps none, or one not of the connection, in the config API shape (422)', async () => {
    for (const [stream, pattern] of [
      ['items', /keeps no state/],
      ['ghosts', /not a stream of the connection/],
    ] as const) {
      const response = await fx.http.post('api/v1/state/create_or_update_safe', {
        headers: bearer(await publicAccessToken(fx)),
        json: {
          connectionId,
          connectionState: { stateType: 'stream', connectionId, streamState: [{ streamDescriptor: { name: stream }, streamState: { a: 1 } }] },
        },
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.body).toMatch(pattern);
    }
  });

  it('a refresh reads the incremental stream from its start again and saves its new state after the swap', async () => {
    const before = upstream.requests.length;
    expect((await api.sync(connectionId, 50, 'refresh')).status).toBe('succeeded');
    expect(firstWindowStart(upstream.requests.slice(before))).toBe(START);
    expect(await ids('tracker_items_updated')).toEqual(range(1, 180));
    expect((await stateOf()).streamState[0].streamState).toEqual({ updated_at: '2024-01-01T02:59:00Z' });
  });
});

/** A token endpoint whose refresh tokens are single-use: each refresh answers a new one and revokes the one it took. */
class RotatingTokens {
  private current = 'refresh-0';
  readonly used: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(accessToken: string): Promise<RotatingTokens> {
    let tokens: RotatingTokens | undefined;
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const given = new URLSearchParams(text).get('refresh_token') ?? '';
        tokens!.used.push(given);
        const valid = given === tokens!.current;
        if (valid) tokens!.current = `refresh-${tokens!.used.length}`;
        res.writeHead(valid ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(valid ? { access_token: accessToken, expires_in: 3600, refresh_token: tokens!.current } : { error: 'invalid_grant' }));
      });
    });
    tokens = new RotatingTokens(server, `${await listen(server)}/token`);
    return tokens;
  }

  get latest(): string {
    return this.current;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('a manifest whose OAuth refresh tokens are single-use', () => {
  const ACCESS = 'access-token-for-the-api';
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let tokens: RotatingTokens;

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 30, projects: 2, tasksPerProject: 2, auth: { kind: 'bearer', token: ACCESS } });
    tokens = await RotatingTokens.start(ACCESS);
    fx = await startHostedFixture('sqlite');
  });
  afterAll(async () => {
    await fx?.close();
    await upstream?.close();
    await tokens?.close();
  });

  /** The tracker manifest, authenticated by OAuth with a refresh token the upstream rotates at each use. */
  function oauthManifest() {
    const manifest = structuredClone(MANIFEST);
    manifest.spec.connection_specification.properties = {
      ...manifest.spec.connection_specification.properties,
      client_id: { type: 'string' },
      client_secret: { type: 'string', airbyte_secret: true },
      refresh_token: { type: 'string', airbyte_secret: true },
      token_url: { type: 'string' },
    };
    manifest.spec.connection_specification.required = ['base_url', 'client_id', 'client_secret', 'refresh_token', 'token_url', 'start_date'];
    manifest.definitions.requester.authenticator = {
      type: 'OAuthAuthenticator',
      token_refresh_endpoint: "{{ config['token_url'] }}",
      client_id: "{{ config['client_id'] }}",
      client_secret: "{{ config['client_secret'] }}",
      refresh_token: "{{ config['refresh_token'] }}",
      refresh_token_updater: {},
    };
    return manifest;
  }

  it('keeps each rotated refresh token as the source configuration: the check at creation, then every stream of a sync', async () => {
    const api = await plainPublicApi(fx);
    const configuration = {
      base_url: upstream.url,
      client_id: 'app',
      client_secret: 'app-secret',
      refresh_token: 'refresh-0',
      token_url: tokens.url,
      start_date: START,
    };
    const made = await manifestSource(api, oauthManifest(), configuration);
    const stored = async () => (await fx.server.hosted.publicApi.sources.actors.open(made.sourceId))!.configuration;
    // The check used refresh-0 and got refresh-1, which the source keeps (its answer masks it).
    expect(tokens.used).toEqual(['refresh-0']);
    expect(await stored()).toMatchObject({ refresh_token: 'refresh-1', client_secret: 'app-secret' });
    expect((await api.call('get', `v1/sources/${made.sourceId}`)).configuration.refresh_token).toBe('**********');

    const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, made.workspaceId));
    const { destinationId } = await api.call('post', 'v1/destinations', {
      name: 'file',
      workspaceId: made.workspaceId,
      configuration: destination.configuration,
    });
    const { connectionId } = await api.call('post', 'v1/connections', {
      sourceId: made.sourceId,
      destinationId,
      configurations: { streams: [{ name: 'items' }, { name: 'Projects' }] },
    });
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    // Each stream's read renewed the token with the newest one: none was refused, the last is kept.
    expect(tokens.used).toEqual(['refresh-0', 'refresh-1', 'refresh-2']);
    expect((await stored()).refresh_token).toBe(tokens.latest);
    expect(await destination.rows('items')).toHaveLength(30);
    const checked = await api.call('post', 'api/v1/sources/check_connection', { sourceId: made.sourceId });
    expect(checked.status, JSON.stringify(checked)).toBe('succeeded');
    expect((await stored()).refresh_token).toBe(tokens.latest);
  });
});
