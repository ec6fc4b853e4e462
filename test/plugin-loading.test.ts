import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorLoadError, createRuntime, NotFoundError, ValidationError } from '../core/index.ts';
import type { ActionDefinition } from '../core/sdk/index.ts';

/** A tiny upstream for the weather fixture connector: two pages of stations, API-key auth. */
let upstream: Server;
let baseUrl: string;
const seenKeys: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seenKeys.push(String(req.headers['x-api-key']));
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (req.headers['x-api-key'] !== 'k-123') return void res.writeHead(401).end('{"code":"bad_key"}');
    if (url.pathname === '/v1/stations') {
      const second = url.searchParams.get('page') === 'p2';
      const stations = second
        ? [{ id: 's3', name: 'Gamma', temperature_c: 3.5 }]
        : [
            { id: 's1', name: 'Alpha' },
            { id: 's2', name: 'Beta', temperature_c: -1 },
          ];
      return void res.end(JSON.stringify({ data: { stations }, paging: { next: second ? null : 'p2' } }));
    }
    if (url.pathname === '/v1/slow') return; // never answers: for the timeout test
    if (url.pathname === '/v1/station') {
      const id = url.searchParams.get('id');
      if (id !== 's1') return void res.writeHead(404).end(JSON.stringify({ code: 'no_such_station' }));
      return void res.end(JSON.stringify({ station: { id: 's1', name: 'Alpha', temperature_c: 12 } }));
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

describe('connector plugins', () => {
  it('loads a connector kept outside core by path and executes its actions', async () => {
    const runtime = await createRuntime({ connectors: ['./test/fixtures/weather-connector/index.ts'] });
    expect(runtime.connectorTypes()).toEqual(['chat', 'file-storage', 'weather']);
    const weather = runtime.connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl });

    const page = await weather.execute({ entity: 'stations', action: 'list' });
    expect(page.status).toBe('success');
    // Every record field the schema lists is present, null when upstream omitted it.
    expect(page.result).toEqual([
      { id: 's1', name: 'Alpha', temperature_c: null },
      { id: 's2', name: 'Beta', temperature_c: -1 },
    ]);
    expect(page.connector_metadata).toEqual({ next_page: 'p2' });
    expect(page.execution_metadata.connector_id).toBe('weather');

    const all = [];
    for await (const station of weather.paginate({ entity: 'stations', action: 'list' })) all.push(station.id);
    expect(all).toEqual(['s1', 's2', 's3']);

    const one = await weather.stations.get({ id: 's1' });
    expect(one.result).toEqual({ id: 's1', name: 'Alpha', temperature_c: 12 });
    await expect(weather.stations.get({ id: 'nope' })).rejects.toMatchObject({ status: 404, error_code: 'no_such_station' });
    await expect(weather.stations.get({ id: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    // The auth rule is data: the key travelled in X-Api-Key, as the manifest says.
    expect(seenKeys.every((key) => key === 'k-123')).toBe(true);
  });

  it('times out a silent upstream with a 502, as the manifest sets', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    runtime.registerConnector({
      ...weather,
      transport: { ...weather.transport, timeoutMs: 200, maxRetries: 0 },
      actions: [{ ...weather.actions[1]!, request: { method: 'GET', path: '/slow' } }],
    });
    const client = runtime.connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl });
    await expect(client.execute({ entity: 'stations', action: 'get', params: { id: 's1' } })).rejects.toMatchObject({
      status: 502,
      error_code: 'upstream_timeout',
    });
  });

  it('refuses a malformed connector and lists every problem', async () => {
    const error = await createRuntime({ builtins: false, connectors: ['./test/fixtures/broken-connector/index.ts'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorLoadError);
    const problems = (error as ConnectorLoadError).problems.join('\n');
    expect(problems).toMatch(/`type` must be a lowercase identifier/);
    expect(problems).toMatch(/unknown auth kind "basic"/);
    expect(problems).toMatch(/defaultBaseUrl/);
    expect(problems).toMatch(/things\.explode.*`action` must be one of list, get, create, update, search, download/);
  });

  it('refuses a connector whose schemas do not compile, naming the action', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const bad = { ...weather, actions: [{ ...weather.actions[1]!, params: { type: 'object', properties: { id: { type: 'strng' } } } }] };
    expect(() => runtime.registerConnector(bad)).toThrow(/stations\.get.*does not compile/s);
  });

  it('refuses actions that would only fail at execute time: bad meta schema, body kind, meta paths, paginated without a cursor param', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const [list, get] = weather.actions as [ActionDefinition, ActionDefinition];
    const attempt = (actions: ActionDefinition[]) => () => runtime.registerConnector({ ...weather, actions });
    expect(attempt([{ ...list, meta: { type: 'bogus' } }])).toThrow(/stations\.list meta schema does not compile/);
    expect(attempt([{ ...get, request: { ...get.request!, body: 'xml' as never } }])).toThrow(/`request\.body` must be "json" or "form"/);
    expect(attempt([{ ...list, response: { ...list.response, meta: { next_page: 42 as never } } }])).toThrow(/`response\.meta` must map names to path strings/);
    expect(attempt([{ ...get, request: { ...get.request!, fieldSelector: { param: 'fields' } as never } }])).toThrow(/`request\.fieldSelector` needs/);
    const badErrors = { ...weather.transport.errors, transientCodes: 'internal_error' as never };
    expect(() => runtime.registerConnector({ ...weather, transport: { ...weather.transport, errors: badErrors } })).toThrow(
      /transport\.errors\.transientCodes must be a list of strings/,
    );
    const { properties, ...rest } = list.params as { properties: Record<string, unknown> };
    const withoutCursor = { ...rest, properties: Object.fromEntries(Object.entries(properties).filter(([name]) => name !== weather.pagination!.cursorParam)) };
    expect(attempt([{ ...list, params: withoutCursor }])).toThrow(/must declare the cursor param "page"/);
  });

  it('refuses a module that cannot be imported, and a type registered twice', async () => {
    await expect(createRuntime({ connectors: ['./test/fixtures/does-not-exist.ts'] })).rejects.toThrow(ConnectorLoadError);
    await expect(createRuntime({ connectors: ['./connectors/chat/index.ts'] })).rejects.toThrow(/already registered/);
  });

  it('validates credentials: exactly one accepted kind, never echoing the secret', async () => {
    const runtime = await createRuntime({ connectors: ['./test/fixtures/weather-connector/index.ts'] });
    const attempt = (credentials: unknown) => {
      try {
        runtime.connector('weather', { credentials: credentials as never, base_url: baseUrl });
        return undefined;
      } catch (error) {
        return error as ValidationError;
      }
    };
    expect(attempt({ access_token: 'secret-oauth-value' })?.detail).toEqual([
      {
        loc: ['credentials', 'access_token'],
        msg: expect.stringMatching(/does not accept oauth credentials; accepted: token/),
        type: 'value_error.credentials.unsupported',
      },
    ]);
    expect(attempt({ token: 'a', access_token: 'b' })?.status).toBe(422);
    expect(attempt({})?.issues[0]?.type).toBe('value_error.missing');
    expect(attempt(undefined)?.issues[0]?.type).toBe('value_error.missing');
    expect(attempt({ token: '' })?.issues[0]?.loc).toEqual(['credentials', 'token']);
    expect(attempt({ token: 'x', password: 'hunter2' })?.issues[0]?.type).toBe('value_error.extra');
    // A secret that cannot travel in an HTTP header is the caller's mistake (422), never an upstream failure.
    for (const token of ['k-123\n', 'k 123', 'k-€123']) {
      expect(attempt({ token })?.issues[0]).toMatchObject({ loc: ['credentials', 'token'], type: 'value_error.credentials.characters' });
    }
    expect(JSON.stringify(attempt({ token: 'k-€secret' }))).not.toContain('secret');
    expect(JSON.stringify(attempt({ access_token: 'secret-oauth-value' }))).not.toContain('secret-oauth-value');
    expect(() => runtime.connector('nope', { credentials: { token: 'x' } })).toThrow(/unknown connector type "nope"; loaded: chat, file-storage, weather/);
    expect(() => runtime.connector('weather', { credentials: { token: 'x' }, base_url: 'ftp://x' })).toThrow(ValidationError);
  });
});
