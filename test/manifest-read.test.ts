/**
 * The manifest reader against the local REST upstream: records and the requests that fetch them for each
 * pagination style, record selection, filters and transformations, partition routers, incremental
 * reads that resume from their state, each authenticator, the error handlers' actions, the connection
 * check, the egress policy, and a large read that never holds more than the page in hand.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, CredentialsExpiredError, NotFoundError, RateLimitedError, UpstreamError } from '../core/errors.ts';
import { type LoadedManifest, loadManifest } from '../core/manifests/index.ts';
import {
  checkConnection,
  type ReadMessage,
  type ReadOptions,
  readStream,
  toAirbyteStreamState,
  UpstreamCredentialsRefusedError,
} from '../core/manifests/read/index.ts';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import { RestUpstream, type RestUpstreamOptions } from '../testing/index.ts';

const manifests = new Map<string, LoadedManifest>();
function manifest(name: 'read-items' | 'read-auth' | 'read-errors'): LoadedManifest {
  let loaded = manifests.get(name);
  if (!loaded) {
    loaded = loadManifest(readFileSync(new URL(`fixtures/manifests/${name}.yaml`, import.meta.url), 'utf8'), { name });
    manifests.set(name, loaded);
  }
  return loaded;
}

const running: RestUpstream[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((upstream) => upstream.close()));
});

async function start(options: RestUpstreamOptions = {}): Promise<RestUpstream> {
  const upstream = await RestUpstream.start(options);
  running.push(upstream);
  return upstream;
}

async function read(loaded: LoadedManifest, stream: string, options: ReadOptions) {
  const messages: ReadMessage[] = [];
  for await (const message of readStream(loaded, stream, options)) messages.push(message);
  const records = messages.flatMap((message) => (message.type === 'record' ? [message.record] : []));
  const states = messages.flatMap((message) => (message.type === 'state' ? [message.state] : []));
  return { messages, records, states, ids: records.map((record) => record.id) };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the read to fail');
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const minute = (index: number) => new Date(Date.UTC(2024, 0, 1) + index * 60_000).toISOString().replace('.000Z', 'Z');

describe('reading a manifest stream: pagination and records', () => {
  it('pages by page number, offset, cursor and next URL, sending what the CDK sends', async () => {
    const upstream = await start({ items: 250 });
    const config = { base_url: upstream.url };
    const queries = async (stream: string) => {
      upstream.requests.length = 0;
      const { ids } = await read(manifest('read-items'), stream, { config });
      expect(ids).toEqual(range(1, 250));
      return upstream.requests.map((request) => request.query);
    };
    expect(await queries('items_by_page')).toEqual([{ per_page: '100' }, { per_page: '100', page: '2' }, { per_page: '100', page: '3' }]);
    expect(await queries('items_by_offset')).toEqual([
      { limit: '100', offset: '0' },
      { limit: '100', offset: '100' },
      { limit: '100', offset: '200' },
    ]);
    const cursors = await queries('items_by_cursor');
    expect(cursors).toEqual([{ limit: '100' }, { limit: '100', cursor: expect.any(String) }, { limit: '100', cursor: expect.any(String) }]);
    // RequestPath: the token is the next URL; the requester's own parameters are added to its query.
    expect(await queries('items_by_next_url')).toEqual([
      { limit: '80' },
      { cursor: expect.any(String), seen: '80', limit: '80' },
      { cursor: expect.any(String), seen: '80', limit: '80' },
      { cursor: expect.any(String), seen: '80', limit: '80' },
    ]);
  });

  it('stops at a short page, reads one page without pagination, and takes page_size from the config', async () => {
    const upstream = await start({ items: 40 });
    const byPage = await read(manifest('read-items'), 'items_by_page', { config: { base_url: upstream.url, page_size: 20 } });
    expect(byPage.ids).toEqual(range(1, 40));
    // Two full pages, then an empty one ends it.
    expect(upstream.requests.map((request) => request.query.page ?? '1')).toEqual(['1', '2', '3']);
    upstream.requests.length = 0;
    const first = await read(manifest('read-items'), 'items_first_page', { config: { base_url: upstream.url, limit: 3 } });
    expect(first.ids).toEqual([1, 2, 3]);
    expect(first.states).toEqual([{ __ab_no_cursor_state_message: true }]);
    expect(upstream.requests).toHaveLength(1);
  });

  it('sends JSON and form bodies with the page token injected into them', async () => {
    // The upstream pages by its query alone, so these reads would go on for ever: three requests are enough to see.
    const upstream = await start({ items: 100 });
    const limits = { maxRequests: 3 };
    const posted = await failure(read(manifest('read-items'), 'items_posted', { config: { base_url: upstream.url, label: 'shop' }, limits }));
    expect(posted).toMatchObject({ error_code: 'manifest_read_limit' });
    expect(upstream.requests.map((request) => [request.method, request.query, request.body])).toEqual([
      ['POST', { limit: '40' }, { filter: { label: 'shop', limit: 40 } }],
      ['POST', { limit: '40' }, { filter: { label: 'shop', limit: 40 }, page: { offset: 40 } }],
      ['POST', { limit: '40' }, { filter: { label: 'shop', limit: 40 }, page: { offset: 80 } }],
    ]);
    upstream.requests.length = 0;
    await failure(read(manifest('read-items'), 'items_form', { config: { base_url: upstream.url, label: 'shop' }, limits }));
    expect(upstream.requests.map((request) => request.body)).toEqual([{ label: 'shop' }, { label: 'shop', page: '2' }, { label: 'shop', page: '3' }]);
  });

  it("drops the router's options after the first page when the retriever says so", async () => {
    const upstream = await start({ items: 150 });
    await read(manifest('read-items'), 'items_by_region_first_pages', { config: { base_url: upstream.url } });
    expect(upstream.requests.map((request) => request.query)).toEqual([
      { per_page: '100', region: 'eu' },
      { per_page: '100', page: '2' },
    ]);
  });

  it('selects records: a dict is one record, a glob every match, an empty path the body, a scalar none', async () => {
    const upstream = await start({ items: 30 });
    const config = { base_url: upstream.url, item_id: 7 };
    expect((await read(manifest('read-items'), 'item', { config })).records).toEqual([expect.objectContaining({ id: 7, name: 'item 7' })]);
    expect((await read(manifest('read-items'), 'items_globbed', { config })).ids).toEqual(range(1, 30));
    expect((await read(manifest('read-items'), 'whole_body', { config })).records).toEqual([{ id: 'me', name: 'Test account' }]);
    expect((await read(manifest('read-items'), 'scalar', { config })).records).toEqual([]);
  });

  it('filters records and transforms them in order', async () => {
    const upstream = await start({ items: 40 });
    const { records } = await read(manifest('read-items'), 'items_shaped', { config: { base_url: upstream.url, min_id: 10, label: 'rest' } });
    // Even ids, tagged red (every third item), above min_id.
    expect(records.map((record) => record.id)).toEqual([16, 22, 28, 34, 40]);
    expect(records[0]).toEqual({
      id: 16,
      name: 'item 16',
      'updated-at': '2024-01-01T00:15:00.000Z',
      'project-id': 1,
      metrics: {},
      source: { api: 'rest' },
      'views-doubled': 210,
      'double-known': true,
      camelcase: 'yes',
    });
  });
});

describe('reading a manifest stream: partitions', () => {
  it('reads a substream: each parent record is a partition, read as the parent pages arrive', async () => {
    const upstream = await start({ projects: 3, tasksPerProject: 2 });
    const { records, states } = await read(manifest('read-items'), 'tasks', { config: { base_url: upstream.url } });
    expect(records.map((record) => [record.id, record.partition_project, record.project_owner])).toEqual([
      ['1-1', 1, 'owner of project 1'],
      ['1-2', 1, 'owner of project 1'],
      ['2-1', 2, 'owner of project 2'],
      ['2-2', 2, 'owner of project 2'],
      ['3-1', 3, 'owner of project 3'],
      ['3-2', 3, 'owner of project 3'],
    ]);
    expect(upstream.requests.map((request) => request.path)).toEqual([
      '/api/projects',
      '/api/projects/1/tasks',
      '/api/projects/2/tasks',
      '/api/projects/3/tasks',
    ]);
    expect(states).toEqual([{ __ab_no_cursor_state_message: true }]);
  });

  it('reads a list of partitions from a config template, injecting each value', async () => {
    const upstream = await start({ projects: 5, tasksPerProject: 2 });
    const { ids } = await read(manifest('read-items'), 'tasks_listed', { config: { base_url: upstream.url, projects: [4, 2] } });
    expect(ids).toEqual(['4-1', '4-2', '2-1', '2-2']);
    expect(upstream.requests.map((request) => [request.path, request.query])).toEqual([
      ['/api/projects/4/tasks', { project: '4' }],
      ['/api/projects/2/tasks', { project: '2' }],
    ]);
  });

  it('reads the product of a substream and a list, the first router outermost', async () => {
    const upstream = await start({ projects: 2, tasksPerProject: 3 });
    const { records } = await read(manifest('read-items'), 'tasks_by_kind', { config: { base_url: upstream.url } });
    expect(records.map((record) => `${record.id}/${record.kind}`)).toEqual([
      '1-1/open',
      '1-2/open',
      '1-1/closed',
      '1-2/closed',
      '2-1/open',
      '2-2/open',
      '2-1/closed',
      '2-2/closed',
    ]);
    expect(upstream.requests.map((request) => `${request.path}?${request.query.kind ?? ''}`)).toEqual([
      '/api/projects?',
      '/api/projects/1/tasks?open',
      '/api/projects/1/tasks?closed',
      '/api/projects/2/tasks?open',
      '/api/projects/2/tasks?closed',
    ]);
  });
});

describe('reading a manifest stream: incremental', () => {
  const window = (start: number, end: number) => ({ updated_after: minute(start), updated_before: minute(end) });

  it('slices by step and granularity, checkpoints after each slice, and resumes with only the new window', async () => {
    const upstream = await start({ items: 1000 });
    const config = { base_url: upstream.url, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T03:00:00Z' };
    const first = await read(manifest('read-items'), 'items_incremental', { config });
    expect(first.ids).toEqual(range(1, 180));
    expect(upstream.requests.map((request) => request.query)).toEqual([
      { per_page: '100', ...window(0, 60), updated_before: '2024-01-01T00:59:59Z' },
      { per_page: '100', ...window(60, 120), updated_before: '2024-01-01T01:59:59Z' },
      // The last slice ends at the end itself.
      { per_page: '100', ...window(120, 180) },
    ]);
    expect(first.states).toEqual([{ updated_at: minute(59) }, { updated_at: minute(119) }, { updated_at: minute(179) }]);

    upstream.requests.length = 0;
    const later = { ...config, end_date: '2024-01-01T05:00:00Z' };
    const second = await read(manifest('read-items'), 'items_incremental', { config: later, state: first.states.at(-1) });
    // From the saved cursor value (inclusive, as the CDK restarts at it) to the new end.
    expect(upstream.requests.map((request) => request.query)).toEqual([
      { per_page: '100', ...window(179, 239), updated_before: '2024-01-01T03:58:59Z' },
      { per_page: '100', ...window(239, 299), updated_before: '2024-01-01T04:58:59Z' },
      { per_page: '100', ...window(299, 300) },
    ]);
    expect(second.ids).toEqual(range(180, 300));
    expect(second.states.at(-1)).toEqual({ updated_at: minute(299) });

    // A lookback starts that much earlier; an Airbyte state message is taken as well.
    upstream.requests.length = 0;
    const third = await read(manifest('read-items'), 'items_incremental', {
      config: { ...later, lookback: 'PT30M', step: 'P1D' },
      state: [toAirbyteStreamState('other', { updated_at: minute(0) }), toAirbyteStreamState('items_incremental', second.states.at(-1)!)],
    });
    expect(upstream.requests.map((request) => request.query)).toEqual([{ per_page: '100', ...window(269, 300) }]);
    expect(third.ids).toEqual(range(270, 300));
  });

  it('with nothing new, keeps the saved state', async () => {
    const upstream = await start({ items: 100 });
    const config = { base_url: upstream.url, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T01:00:00Z' };
    const { records, states } = await read(manifest('read-items'), 'items_incremental', { config, state: { updated_at: '2024-01-01T01:00:00Z' } });
    expect(records).toEqual([]);
    expect(upstream.requests).toEqual([]);
    expect(states).toEqual([{ updated_at: '2024-01-01T01:00:00Z' }]);
  });

  it('filters records client-side against the state', async () => {
    const upstream = await start({ items: 100 });
    const config = { base_url: upstream.url, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T00:50:00Z' };
    const { ids, states } = await read(manifest('read-items'), 'items_client_side', { config, state: { updated_at: minute(45) } });
    // The upstream is asked for everything; records before the state or after the end are dropped.
    expect(upstream.requests.map((request) => request.query)).toEqual([{ per_page: '100' }, { per_page: '100', page: '2' }]);
    expect(ids).toEqual(range(46, 51));
    expect(states).toEqual([{ updated_at: minute(50) }]);
  });

  it('stops paging a data feed at a page ending before the state', async () => {
    const upstream = await start({ items: 300 });
    expect((await read(manifest('read-items'), 'items_feed', { config: { base_url: upstream.url } })).ids).toHaveLength(300);
    upstream.requests.length = 0;
    const resumed = await read(manifest('read-items'), 'items_feed', {
      config: { base_url: upstream.url },
      state: { updated_at: '2024-01-01T02:30:00.000000+0000' },
    });
    expect(resumed.ids).toEqual(range(1, 100));
    expect(upstream.requests).toHaveLength(1);
  });

  it('writes slices and state in epoch formats, within the MinMaxDatetime bounds', async () => {
    const upstream = await start({ items: 100 });
    const epochs = loadManifest(
      {
        version: '6.44.0',
        check: { stream_names: ['by_epoch'] },
        spec: { connection_specification: { type: 'object' } },
        streams: [
          {
            type: 'DeclarativeStream',
            name: 'by_epoch',
            retriever: {
              requester: { url_base: `${upstream.url}/api`, path: 'items', request_parameters: { per_page: '100' } },
              record_selector: { extractor: { field_path: ['data'] } },
            },
            incremental_sync: {
              type: 'DatetimeBasedCursor',
              cursor_field: 'updated_at',
              datetime_format: '%ms',
              cursor_datetime_formats: ['%Y-%m-%dT%H:%M:%S.%f%z'],
              // The config's start is before the floor (both in the start's own format): the floor wins.
              start_datetime: { datetime: "{{ config['start'] }}", datetime_format: '%s', min_datetime: String(Date.UTC(2024, 0, 1, 0, 30) / 1000) },
              end_datetime: { datetime: '2024-01-01T01:00:00Z', datetime_format: '%Y-%m-%dT%H:%M:%SZ' },
              step: 'PT20M',
              cursor_granularity: 'PT0.001S',
              start_time_option: { inject_into: 'request_parameter', field_name: 'from_ms' },
            },
            transformations: [{ type: 'RemoveFields', field_pointers: [['metrics', '*']], condition: '{{ property > 5 }}' }],
          },
        ],
      },
      { name: 'epochs' },
    );
    const ms = (index: number) => String(Date.UTC(2024, 0, 1) + index * 60_000);
    const { records, states } = await read(epochs, 'by_epoch', { config: { start: String(Date.UTC(2023, 0, 1) / 1000) } });
    expect(upstream.requests.map((request) => request.query.from_ms)).toEqual([ms(30), ms(50)]);
    // The upstream does not know from_ms and answers its first 100 items each time: the state is the latest of them.
    expect(states).toEqual([{ updated_at: ms(99) }, { updated_at: ms(99) }]);
    // RemoveFields' condition: only the metrics above 5 go.
    expect(records.slice(0, 2).map((record) => record.metrics)).toEqual([{ views: 0, score: 0 }, { score: 0.1 }]);
  });

  it('keeps a cursor per partition, and resumes each partition from its own', async () => {
    const upstream = await start({ items: 1000 });
    const config = { base_url: upstream.url, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T02:00:00Z', step: 'P1D' };
    const first = await read(manifest('read-items'), 'items_by_region', { config });
    // The upstream's updated_before excludes the end: 120 records a region.
    expect(first.records).toHaveLength(2 * 120);
    expect(first.states).toEqual([
      {
        use_global_cursor: false,
        states: [
          { partition: { region: 'eu' }, cursor: { updated_at: minute(119) } },
          { partition: { region: 'us' }, cursor: { updated_at: minute(119) } },
        ],
        state: { updated_at: minute(119) },
        lookback_window: expect.any(Number),
      },
    ]);

    upstream.requests.length = 0;
    const saved = { ...first.states[0]!, lookback_window: 0 } as Record<string, any>;
    saved.states[1].cursor.updated_at = minute(100);
    const second = await read(manifest('read-items'), 'items_by_region', { config: { ...config, end_date: '2024-01-01T02:10:00Z' }, state: saved });
    expect(upstream.requests.map((request) => [request.query.region, request.query.updated_after, request.query.updated_before])).toEqual([
      ['eu', minute(119), minute(130)],
      ['us', minute(100), minute(130)],
    ]);
    expect(second.records).toHaveLength(11 + 30);
    expect(second.states.at(-1)).toMatchObject({
      states: [
        { partition: { region: 'eu' }, cursor: { updated_at: minute(129) } },
        { partition: { region: 'us' }, cursor: { updated_at: minute(129) } },
      ],
      state: { updated_at: minute(129) },
    });
  });

  it('reads the parent incrementally under incremental_dependency: a later read asks only for new parents', async () => {
    const before = await start({ items: 100, projects: 3 });
    const config = { base_url: before.url, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T00:10:00Z', step: 'P1D' };
    const first = await read(manifest('read-items'), 'items_by_project', { config });
    expect(first.records).toHaveLength(3 * 10);
    const state = first.states.at(-1)!;
    expect(state).toEqual({
      use_global_cursor: false,
      states: [1, 2, 3].map((id) => ({ partition: { project_id: id, parent_slice: {} }, cursor: { updated_at: minute(9) } })),
      state: { updated_at: minute(9) },
      // The read's duration in whole seconds.
      lookback_window: expect.any(Number),
      // The parent's own cursor: projects are created an hour apart.
      parent_state: { projects: { created_at: '2024-01-01T02:00:00.000000+0000' } },
    });

    const after = await start({ items: 100, projects: 5 });
    const second = await read(manifest('read-items'), 'items_by_project', {
      config: { ...config, base_url: after.url, end_date: '2024-01-01T00:20:00Z' },
      state: { ...state, lookback_window: 0 },
    });
    // Project 3 again (the parent's cursor is inclusive), from its own cursor; 4 and 5 from the global one.
    expect(after.requests.map((request) => [request.path, request.query.project, request.query.updated_after])).toEqual([
      ['/api/projects', undefined, undefined],
      ['/api/items', '3', minute(9)],
      ['/api/items', '4', minute(9)],
      ['/api/items', '5', minute(9)],
    ]);
    expect(second.records).toHaveLength(3 * 11);
    expect(second.states.at(-1)).toMatchObject({
      state: { updated_at: minute(19) },
      parent_state: { projects: { created_at: '2024-01-01T04:00:00.000000+0000' } },
    });
  });
});

describe('reading a manifest stream: authenticators', () => {
  it('sends an API key, a bearer token, basic credentials, or what the config selects', async () => {
    const keyed = await start({ auth: { kind: 'api_key', header: 'X-Api-Key', key: 'k1' } });
    const auth = manifest('read-auth');
    expect((await read(auth, 'with_api_key', { config: { base_url: keyed.url, api_key: 'k1' } })).records).toEqual([{ id: 'me', name: 'Test account' }]);
    expect(await failure(read(auth, 'with_api_key', { config: { base_url: keyed.url, api_key: 'wrong' } }))).toBeInstanceOf(UpstreamCredentialsRefusedError);
    expect((await read(auth, 'with_selected', { config: { base_url: keyed.url, api_key: 'k1', credentials: { kind: 'key' } } })).records).toHaveLength(1);
    const unknown = await failure(read(auth, 'with_selected', { config: { base_url: keyed.url, credentials: { kind: 'oauth' } } }));
    expect(unknown).toMatchObject({ status: 400, error_code: 'manifest_config_invalid' });

    const bearer = await start({ auth: { kind: 'bearer', token: 't1' } });
    expect((await read(auth, 'with_bearer', { config: { base_url: bearer.url, token: 't1' } })).records).toHaveLength(1);
    expect((await read(auth, 'with_selected', { config: { base_url: bearer.url, token: 't1', credentials: { kind: 'token' } } })).records).toHaveLength(1);
    const refused = await failure(read(auth, 'without_auth', { config: { base_url: bearer.url } }));
    expect(refused).toMatchObject({ status: 502, error_code: 'upstream_http_401' });

    const basic = await start({ auth: { kind: 'basic', username: 'u', password: 'p' } });
    expect((await read(auth, 'with_basic', { config: { base_url: basic.url, username: 'u', password: 'p' } })).records).toHaveLength(1);
  });

  it('logs in once for a session and keeps its token until it expires', async () => {
    let now = Date.UTC(2025, 0, 1);
    const upstream = await start({ items: 30, clock: () => now, auth: { kind: 'session', username: 'u', password: 'p', header: 'X-Session' } });
    const config = { base_url: upstream.url, username: 'u', password: 'p' };
    const { ids } = await read(manifest('read-auth'), 'with_session', { config, clock: () => now });
    expect(ids).toEqual(range(1, 30));
    expect(upstream.requests.map((request) => request.path)).toEqual(['/api/session', '/api/items', '/api/items', '/api/items', '/api/items']);
    expect(upstream.requests[0]!.body).toEqual({ username: 'u', password: 'p' });

    // An hour later (the session's expiration_duration) the next page logs in again.
    upstream.requests.length = 0;
    let seen = 0;
    for await (const message of readStream(manifest('read-auth'), 'with_session', { config, clock: () => now })) {
      if (message.type === 'record' && ++seen === 10) now += 3_600_000;
    }
    expect(upstream.requests.map((request) => request.path)).toEqual(['/api/session', '/api/items', '/api/session', '/api/items', '/api/items', '/api/items']);
    expect(upstream.issuedTokens).toBe(3);

    const refused = await failure(read(manifest('read-auth'), 'with_session', { config: { ...config, password: 'wrong' }, clock: () => now }));
    expect(refused).toBeInstanceOf(UpstreamCredentialsRefusedError);
  });

  it('renews an OAuth access token before it expires and keeps it for the rest of the read', async () => {
    let now = Date.UTC(2025, 0, 1);
    const upstream = await start({
      items: 30,
      clock: () => now,
      auth: { kind: 'oauth', clientId: 'c', clientSecret: 's', refreshToken: 'r', tokenTtlSeconds: 3600 },
    });
    const config = { base_url: upstream.url, client_id: 'c', client_secret: 's', refresh_token: 'r' };
    let seen = 0;
    const ids: unknown[] = [];
    for await (const message of readStream(manifest('read-auth'), 'with_oauth', { config, clock: () => now })) {
      if (message.type !== 'record') continue;
      ids.push(message.record.id);
      // Five seconds before the token's expiry: the next page goes out with a renewed one.
      if (++seen === 15) now += 3_595_000;
    }
    expect(ids).toEqual(range(1, 30));
    expect(upstream.requests.map((request) => request.path)).toEqual(['/oauth/token', '/api/items', '/api/items', '/oauth/token', '/api/items', '/api/items']);
    expect(upstream.requests[0]!.body).toEqual({ grant_type: 'refresh_token', refresh_token: 'r', client_id: 'c', client_secret: 's' });
    expect(upstream.issuedTokens).toBe(2);

    const refused = await failure(read(manifest('read-auth'), 'with_oauth', { config: { ...config, refresh_token: 'revoked' }, clock: () => now }));
    expect(refused).toBeInstanceOf(CredentialsExpiredError);
  });
});

describe('reading a manifest stream: error handlers', () => {
  it('IGNOREs a 404 as no records', async () => {
    const upstream = await start({ items: 10 });
    const { records, states } = await read(manifest('read-errors'), 'missing_item', { config: { base_url: upstream.url, item_id: 99 } });
    expect(records).toEqual([]);
    expect(states).toEqual([{ __ab_no_cursor_state_message: true }]);
    // Without a filter the CDK's default mapping fails on it.
    const missing = await failure(read(manifest('read-items'), 'item', { config: { base_url: upstream.url, item_id: 99 } }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ error_code: 'upstream_http_404' });
  });

  it('retries a 429 after the wait its header says, and gives up after max_retries', async () => {
    const upstream = await start({ items: 10 });
    const waits: number[] = [];
    const options = { config: { base_url: upstream.url }, onRetry: (seconds: number) => waits.push(seconds) };
    upstream.fail({ path: '/api/items', status: 429, retryAfter: 0.2, count: 2 });
    expect((await read(manifest('read-errors'), 'retried_items', options)).ids).toEqual([1, 2, 3, 4, 5]);
    expect(waits).toEqual([0.2, 0.2]);
    expect(upstream.requests).toHaveLength(3);

    upstream.fail({ path: '/api/items', status: 429, retryAfter: 0.1, count: 3 });
    const exhausted = await failure(read(manifest('read-errors'), 'retried_items', options));
    expect(exhausted).toBeInstanceOf(RateLimitedError);
    expect(exhausted).toMatchObject({ status: 429, retryAfterSeconds: 1 });

    // A wait longer than the read allows fails at once, with the upstream's hint.
    upstream.requests.length = 0;
    upstream.fail({ path: '/api/items', status: 429, retryAfter: 30 });
    const tooLong = await failure(read(manifest('read-errors'), 'retried_items', { ...options, limits: { maxRetryWaitSeconds: 5 } }));
    expect(tooLong).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    expect(upstream.requests).toHaveLength(1);
  });

  it("FAILs with the manifest's message and the upstream status", async () => {
    const upstream = await start({ items: 10 });
    upstream.fail({ path: '/api/items', status: 500 });
    const failed = await failure(read(manifest('read-errors'), 'failing_items', { config: { base_url: upstream.url, label: 'shop' } }));
    expect(failed).toBeInstanceOf(UpstreamError);
    expect(failed).toMatchObject({
      status: 502,
      error_code: 'upstream_http_500',
      detail: 'The items API failed for shop: injected fault (upstream status 500)',
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it('takes the first handler of a composite that retries or ignores, with any handler’s backoff', async () => {
    const upstream = await start({ items: 10 });
    const waits: number[] = [];
    upstream.fail({ path: '/api/items', status: 503, count: 2 });
    const { ids } = await read(manifest('read-errors'), 'composite_items', { config: { base_url: upstream.url }, onRetry: (seconds) => waits.push(seconds) });
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(waits).toEqual([0.05, 0.05]);
  });

  it('matches a predicate on the body and headers; an unmatched 400 fails by the default mapping', async () => {
    const upstream = await start({ items: 10 });
    const waits: number[] = [];
    upstream.fail({ path: '/api/items', status: 400, retryAfter: 1 });
    const { ids } = await read(manifest('read-errors'), 'predicate_items', { config: { base_url: upstream.url }, onRetry: (seconds) => waits.push(seconds) });
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    // RATE_LIMITED with the exponential strategy: factor × 2^attempt.
    expect(waits).toEqual([0.02]);

    upstream.fail({ path: '/api/items', status: 400 });
    const failed = await failure(read(manifest('read-errors'), 'predicate_items', { config: { base_url: upstream.url } }));
    expect(failed).toBeInstanceOf(BadRequestError);
    expect(failed).toMatchObject({ detail: 'Bad request. Please check your request parameters. (upstream status 400)', error_code: 'upstream_http_400' });
  });
});

describe('checking a manifest connection', () => {
  it("reads the check streams' first page, and says when the credentials are refused", async () => {
    const upstream = await start({ items: 500, auth: { kind: 'bearer', token: 't1' } });
    expect(await checkConnection(manifest('read-auth'), { config: { base_url: upstream.url, token: 't1' } })).toEqual({
      streams: [{ name: 'with_bearer', records: true }],
    });
    const refused = await failure(checkConnection(manifest('read-auth'), { config: { base_url: upstream.url, token: 'stolen' } }));
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ error_code: 'credentials_rejected' });

    const open = await start({ items: 500 });
    await checkConnection(manifest('read-items'), { config: { base_url: open.url } });
    // One page of the first slice, not the stream.
    expect(open.requests).toHaveLength(1);
  });

  it('connects only where the egress policy allows', async () => {
    const upstream = await start({ items: 5 });
    const refused = await failure(read(manifest('read-items'), 'items_by_page', { config: { base_url: upstream.url }, egress: new EgressPolicy() }));
    expect(refused).toMatchObject({ status: 400, error_code: 'egress_refused' });
    expect(upstream.requests).toHaveLength(0);
    const port = new URL(upstream.url).port;
    const opened = await read(manifest('read-items'), 'items_by_page', {
      config: { base_url: upstream.url },
      egress: EgressPolicy.fromSetting(`127.0.0.1:${port}`),
    });
    expect(opened.ids).toEqual(range(1, 5));
  });
});

describe('bounding a read', () => {
  it('stops when its signal aborts, and at its request limit', async () => {
    const upstream = await start({ items: 500 });
    const controller = new AbortController();
    const seen: unknown[] = [];
    const aborted = await failure(
      (async () => {
        for await (const message of readStream(manifest('read-items'), 'items_by_page', { config: { base_url: upstream.url }, signal: controller.signal })) {
          if (message.type === 'record') seen.push(message.record.id);
          if (seen.length === 150) controller.abort();
        }
      })(),
    );
    expect(aborted).toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(150);
    expect(upstream.requests).toHaveLength(2);

    const limited = await failure(read(manifest('read-items'), 'items_by_page', { config: { base_url: upstream.url }, limits: { maxRequests: 3 } }));
    expect(limited).toMatchObject({ status: 422, error_code: 'manifest_read_limit' });
  });
});

describe('reading a large stream', () => {
  it('reads 50,000 records holding only the page in hand', async () => {
    const upstream = await start({ items: 50_000, maxPageSize: 1000 });
    const pageSize = 1000;
    let count = 0;
    let aheadMax = 0;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const started = performance.now();
    for await (const message of readStream(manifest('read-items'), 'items_by_page', { config: { base_url: upstream.url, page_size: pageSize } })) {
      if (message.type !== 'record') continue;
      count++;
      // Pages requested beyond the one this record came from: none (the next goes out once this one is consumed).
      aheadMax = Math.max(aheadMax, upstream.requests.length - Math.ceil(count / pageSize));
      if (count % 5000 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(count).toBe(50_000);
    expect(aheadMax).toBe(0);
    expect(upstream.requests).toHaveLength(51);
    console.log(
      `manifest read: ${count} records in ${seconds.toFixed(2)} s (${Math.round(count / seconds)} records/s), rss ${Math.round(rssBefore / 2 ** 20)} → peak ${Math.round(rssPeak / 2 ** 20)} MB`,
    );
  });
});
