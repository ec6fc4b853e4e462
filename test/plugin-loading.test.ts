import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectorLoadError, createRuntime, NotFoundError, Runtime, UpstreamError, ValidationError } from '../index.ts';
import { type ActionDefinition, defineAction } from '../core/sdk/index.ts';

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
    // Schemas are compiled even when the structure is wrong: one load names every problem.
    expect(problems).toMatch(/params schema of things\.list: not a valid JSON Schema: #\/properties\/n\/type must be equal to one of the allowed values/);
  });

  it('refuses a connector whose schemas do not compile, naming the action', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const bad = { ...weather, actions: [{ ...weather.actions[1]!, params: { type: 'object', properties: { id: { type: 'strng' } } } }] };
    expect(() => runtime.registerConnector(bad)).toThrow(/params schema of stations\.get: not a valid JSON Schema: #\/properties\/id\/type/);
  });

  it('refuses actions that would only fail at execute time: bad meta schema, body kind, meta paths, paginated without a cursor param', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const [list, get] = weather.actions as [ActionDefinition, ActionDefinition];
    const attempt = (actions: ActionDefinition[]) => () => runtime.registerConnector({ ...weather, actions });
    expect(attempt([{ ...list, meta: { type: 'bogus' } }])).toThrow(/meta schema of stations\.list: not a valid JSON Schema/);
    expect(attempt([{ ...get, request: { ...get.request!, body: 'xml' as never } }])).toThrow(/`request\.body` must be "json" or "form"/);
    expect(attempt([{ ...list, response: { ...list.response, meta: { next_page: 42 as never } } }])).toThrow(/`response\.meta` must map names to path strings/);
    expect(attempt([{ ...get, hooks: { prepareParams: 'widen' as never } }])).toThrow(/`hooks\.prepareParams` must be a function/);
    expect(attempt([{ ...get, hooks: { fileName: async () => 'x' } }])).toThrow(/`hooks\.fileName` is for download actions only/);
    expect(attempt([{ ...get, hooks: { prepareParam: (params: object) => params } as never }])).toThrow(/unknown hook "prepareParam"; known: prepareParams/);
    expect(attempt([{ ...get, hooks: { run: async () => ({}) } }])).toThrow(/`hooks\.run` takes the place of `request`/);
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

describe('a connector load error', () => {
  it('lists every problem at once: structure, every schema that does not compile, path placeholders no param fills', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const [list, get] = weather.actions as [ActionDefinition, ActionDefinition];
    const broken = {
      ...weather,
      type: 'Weather Stations',
      replicationConfig: { type: 'object', required: ['region'], properties: {} },
      actions: [
        {
          ...list,
          params: { ...list.params, requird: ['page'] },
          meta: { type: 'object', properties: { next_page: { type: 'string', format: 'emial' } } },
        },
        {
          ...get,
          record: { type: 'strng' },
          request: { method: 'GET', path: '/stations/{stationId}/readings/{id}' },
          hooks: { transformResponse: 'rename' },
        },
      ],
    };
    const error = (() => {
      try {
        runtime.registerConnector(broken as never);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConnectorLoadError);
    expect((error as ConnectorLoadError).problems).toEqual([
      '`type` must be a lowercase identifier such as "chat"',
      'actions[1] (stations.get): `hooks.transformResponse` must be a function',
      'actions[1] (stations.get): `request.path` placeholder {stationId} matches no property of the params schema',
      'replicationConfig schema: "required" lists "region", which "properties" does not define (at #)',
      `params schema of stations.list: unknown keyword "requird" (a typo? Ajv's strict mode refuses keywords it does not know)`,
      'meta schema of stations.list: unknown format "emial" at #/properties/next_page (a typo? only the formats of ajv-formats are known)',
      'record schema of stations.get: not a valid JSON Schema: #/type must be equal to one of the allowed values',
    ]);
    expect((error as ConnectorLoadError).message).toMatch(/^Cannot load connector "connector value "Weather Stations"":\n {2}- `type` must be/);
  });
});

describe('action hooks', () => {
  it('prepare params, run the call through the instance transport, and rewrite the body; records are completed after', async () => {
    const runtime = await createRuntime({ builtins: false });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const { request: _declared, ...get } = weather.actions[1]!;
    const hooked = defineAction<{ id: string }>({
      ...get,
      hooks: {
        prepareParams: (params) => ({ ...params, id: params.id.toLowerCase() }),
        run: (params, upstream) => upstream.requestJson({ method: 'GET', path: '/station' }, params),
        transformResponse: (body, params) => ({ station: { ...(body as { station: object }).station, name: undefined, asked_for: params.id } }),
      },
    });
    runtime.registerConnector({ ...weather, actions: [weather.actions[0]!, hooked] });
    const client = runtime.connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl });
    const params = { id: 'S1' };
    const { result } = await client.execute({ entity: 'stations', action: 'get', params });
    expect(result).toEqual({ id: 's1', name: null, temperature_c: 12, asked_for: 's1' });
    expect(params).toEqual({ id: 'S1' });
    // The hook's call went with the instance's auth header, and its failure is mapped as the connector declares.
    expect(seenKeys.at(-1)).toBe('k-123');
    await expect(client.execute({ entity: 'stations', action: 'get', params: { id: 'NOPE' } })).rejects.toMatchObject({
      status: 404,
      error_code: 'no_such_station',
    });
    // Params are validated before any hook runs.
    await expect(client.execute({ entity: 'stations', action: 'get', params: {} })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('validateRecords', () => {
  /** The weather connector with a record schema that lies: station names are strings, not integers. */
  const lyingRuntime = async (validateRecords?: 'off' | 'warn' | 'throw') => {
    const runtime = await createRuntime({ builtins: false, validateRecords });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const lying = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'integer' } }, required: ['id'] };
    const download = defineAction({
      entity: 'stations',
      action: 'download',
      description: 'The station list as bytes.',
      params: { type: 'object', additionalProperties: false },
      record: { type: 'object', properties: { never_there: { type: 'string' } }, required: ['never_there'] },
      request: { method: 'GET', path: '/stations' },
      response: { records: '' },
    });
    runtime.registerConnector({ ...weather, actions: [...weather.actions.map((action) => ({ ...action, record: lying })), download] });
    return runtime.connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl });
  };
  const DETAIL =
    'stations.list: upstream records do not match the record schema: record 0 (#/properties/name/type must be integer), record 1 (#/properties/name/type must be integer)';

  afterEach(() => vi.restoreAllMocks());

  it("'throw': a 502 upstream_record_invalid naming the action, the records and the schema paths, never a value", async () => {
    const weather = await lyingRuntime('throw');
    const error = await weather.stations.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, error_code: 'upstream_record_invalid', detail: DETAIL });
    expect(JSON.stringify(error)).not.toMatch(/Alpha|Beta/);
    await expect(weather.stations.get({ id: 's1' })).rejects.toMatchObject({
      detail: 'stations.get: upstream records do not match the record schema: the record (#/properties/name/type must be integer)',
    });
    // A download streams bytes: there is no record to check.
    const bytes = await weather.execute({ entity: 'stations', action: 'download' });
    expect(bytes).toMatchObject({ status: 200, content_type: 'application/json' });
  });

  it('says of a null field that the upstream omitted it, and how to declare it nullable', async () => {
    const runtime = await createRuntime({ builtins: false, validateRecords: 'throw' });
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    const withElevation = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, elevation: { type: 'integer' } } };
    runtime.registerConnector({ ...weather, actions: weather.actions.map((action) => ({ ...action, record: withElevation })) });
    const client = runtime.connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl });
    await expect(client.stations.get({ id: 's1' })).rejects.toMatchObject({
      detail:
        'stations.get: upstream records do not match the record schema: the record (elevation is null: the upstream omitted it (records carry every field of the schema, null when omitted); if it is optional, declare it nullable ("type": ["integer","null"]))',
    });
  });

  it("'warn': a PLUGBOARD_RECORD_INVALID process warning, and the result as the upstream gave it", async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const weather = await lyingRuntime('warn');
    const page = await weather.stations.list();
    expect(page.result).toEqual([
      { id: 's1', name: 'Alpha' },
      { id: 's2', name: 'Beta', temperature_c: -1 },
    ]);
    expect(warn).toHaveBeenCalledExactlyOnceWith(DETAIL, { code: 'PLUGBOARD_RECORD_INVALID' });
  });

  it("'off' (the default): records are not even looked at", async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    for (const mode of ['off', undefined] as const) {
      const weather = await lyingRuntime(mode);
      expect((await weather.stations.get({ id: 's1' })).result).toEqual({ id: 's1', name: 'Alpha', temperature_c: 12 });
    }
    expect(warn).not.toHaveBeenCalled();
    const runtime = new Runtime();
    const { default: weather } = await import('./fixtures/weather-connector/index.ts');
    runtime.registerConnector(weather);
    const compiled = runtime.plugin('weather').resolve('stations', 'get');
    const validateRecord = vi.spyOn(compiled, 'validateRecord');
    await runtime
      .connector('weather', { credentials: { token: 'k-123' }, base_url: baseUrl })
      .execute({ entity: 'stations', action: 'get', params: { id: 's1' } });
    expect(validateRecord).not.toHaveBeenCalled();
  });

  it('refuses a mode it does not know at construction', () => {
    expect(() => new Runtime({ validateRecords: 'strict' as never })).toThrow(/validateRecords must be one of off, warn, throw; got "strict"/);
  });
});
