import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigurationFromUrl } from '../core/hosted/sync/destinations/postgres-connection.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, TEST_PUBLIC_URL, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { compileOperations, expectNowhereInClear, officialSlackConfiguration, publicApiCalls, publicAccessToken } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';
import { destinationDatabaseUrl } from './helpers/sync-destinations.ts';

/**
 * Destinations and connections of the public cloud API against Airbyte's official description
 * (every request and answer checked against api_sdk.yaml, the checks against config.yaml): streams
 * and their sync modes, schedules, secrets, and what goes with a source, a destination, a workspace.
 */

const spec = PublicApiSpec.load();
/** The official operations these tests call, compiled before the server starts (see compileOperations). */
const OPERATIONS = [
  'post /sources',
  'post /destinations',
  'get /destinations',
  'get /destinations/{destinationId}',
  'patch /destinations/{destinationId}',
  'put /destinations/{destinationId}',
  'post /connections',
  'get /connections',
  'get /connections/{connectionId}',
  'patch /connections/{connectionId}',
  'post /v1/destinations/check_connection',
];
const MASK = '**********';
const PG_PASSWORD = 'pg-destination-secret-5c1d';

const slack = officialSlackConfiguration;

/** The chat connector's streams as answers give them, each in its default mode. */
const CHAT_STREAMS = [
  { name: 'users', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] },
  { name: 'channels', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] },
  { name: 'channel_messages', syncMode: 'incremental_deduped_history', cursorField: ['ts'], primaryKey: [['channel_id'], ['ts']] },
  { name: 'threads', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['channel_id'], ['ts']] },
];

describe.each(BACKENDS)('public cloud API destinations and connections on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let workspaceId: string;
  let sourceId: string;
  let destinationId: string;
  const answers: Answer[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'connections-ws' } })).body.workspaceId;
    sourceId = (await call('post', '/sources', '/sources', { body: { name: 'team slack', workspaceId, configuration: slack() } })).body.sourceId;
    destinationId = (await destination({ destinationType: 'sqlite' }, 'local sqlite')).body.destinationId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  /** A destination; SQLite's shape is Plugboard's own (the official oneOf has no SQLite). */
  function destination(configuration: Record<string, unknown>, name = 'a destination', workspace = workspaceId) {
    return call('post', '/destinations', '/destinations', {
      body: { name, workspaceId: workspace, configuration },
      extension: configuration.destinationType === 'sqlite',
    });
  }
  const connect = (body: Record<string, unknown> = {}) => call('post', '/connections', '/connections', { body: { sourceId, destinationId, ...body } });
  const raw = async (method: 'post' | 'patch', path: string, json: unknown) => {
    const response = await fx.http(`v1${path}`, { method: method.toUpperCase() as 'POST', headers: bearer(token), json });
    return { status: response.statusCode, body: JSON.parse(response.body), contentType: response.headers['content-type'] };
  };
  const row = (id: string) =>
    fx.server.hosted.cloudDb.get<{ next_run_at: number | string | null }>('SELECT next_run_at FROM cloud_connections WHERE id = ?', [id]);

  it('creates, gets, lists and deletes destinations: SQLite with its own file, DuckDB in the official shape', async () => {
    const sqlite = await call('get', '/destinations/{destinationId}', `/destinations/${destinationId}`, { extension: true });
    expect(sqlite.body).toMatchObject({
      name: 'local sqlite',
      destinationType: 'sqlite',
      definitionId: 'b76be0a6-27dc-4560-95f6-2623da0bd7b6',
      workspaceId,
      configuration: { destinationType: 'sqlite', destination_path: `/local/${destinationId}.sqlite` },
    });
    const duck = await destination({ destinationType: 'duckdb', destination_path: '/local/connections.duckdb', schema: 'main' }, 'duck');
    expect(duck.status, JSON.stringify(duck.body)).toBe(200);
    expect(duck.body).toMatchObject({ destinationType: 'duckdb', definitionId: '94bd199c-2ff0-4aa2-b98e-17f0acb72610' });
    const renamed = await call('patch', '/destinations/{destinationId}', `/destinations/${duck.body.destinationId}`, { body: { name: 'duck renamed' } });
    expect(renamed.body).toEqual({ ...duck.body, name: 'duck renamed' });
    const put = await call('put', '/destinations/{destinationId}', `/destinations/${duck.body.destinationId}`, {
      body: { name: 'duck put', configuration: { destinationType: 'duckdb', destination_path: '/local/other.duckdb' } },
    });
    expect(put.body.configuration).toEqual({ destinationType: 'duckdb', destination_path: '/local/other.duckdb' });
    const listed = await call('get', '/destinations', `/destinations?workspaceIds=${workspaceId}`, { extension: true });
    expect(listed.body.data.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['local sqlite', 'duck put']));
    const check = await call('post', '/v1/destinations/check_connection', '/v1/destinations/check_connection', {
      prefix: 'api',
      body: { destinationId: duck.body.destinationId },
    });
    expect(check.body).toMatchObject({ status: 'succeeded', jobInfo: { configType: 'check_connection_destination', succeeded: true } });
    expect((await call('delete', '/destinations/{destinationId}', `/destinations/${duck.body.destinationId}`)).status).toBe(204);
    expect((await call('get', '/destinations/{destinationId}', `/destinations/${duck.body.destinationId}`)).status).toBe(404);

    for (const [configuration, loc] of [
      [{ destinationType: 'duckdb', destination_path: '../../escape.duckdb' }, 'body.configuration'],
      [{ destinationType: 'sqlite', destination_path: 'plugboard.db' }, 'body.configuration'],
      [{ destinationType: 'bigquery' }, 'body.configuration.destinationType'],
      [{ destinationType: 'duckdb' }, 'body.configuration.destination_path'],
    ] as const) {
      const answer = await raw('post', '/destinations', { name: 'bad', workspaceId, configuration });
      expect([answer.status, answer.contentType], JSON.stringify(configuration)).toEqual([400, 'application/problem+json']);
      expect(answer.body.issues?.[0]?.loc.join('.'), JSON.stringify(answer.body)).toBe(loc);
    }
  });

  it.skipIf(backend !== 'postgres')('masks a PostgreSQL destination password in every answer and keeps it sealed', async () => {
    const configuration = { ...postgresConfigurationFromUrl(destinationDatabaseUrl(), 'public'), password: PG_PASSWORD };
    const made = await destination(configuration, 'warehouse');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.configuration).toEqual({ ...configuration, password: MASK });
    const back = await call('patch', '/destinations/{destinationId}', `/destinations/${made.body.destinationId}`, {
      body: { configuration: made.body.configuration },
    });
    expect(back.body.configuration.password).toBe(MASK);
    const opened = await fx.server.hosted.publicApi.destinations.actors.open(made.body.destinationId);
    expect(opened?.configuration.password).toBe(PG_PASSWORD);
    await expectNowhereInClear(fx, [PG_PASSWORD]);
  });

  it('connects a source to a destination: every stream in its default mode, named after both ends, manual, with its sync target', async () => {
    const made = await connect();
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({
      name: 'team slack → local sqlite',
      sourceId,
      destinationId,
      workspaceId,
      status: 'active',
      schedule: { scheduleType: 'manual' },
      prefix: '',
      namespaceDefinition: 'destination',
      nonBreakingSchemaUpdatesBehavior: 'ignore',
      configurations: { streams: CHAT_STREAMS },
      tags: [],
    });
    expect(await row(made.body.connectionId)).toEqual({ next_run_at: null });
    expect((await call('get', '/connections/{connectionId}', `/connections/${made.body.connectionId}`)).body).toEqual(made.body);

    const target = await fx.server.hosted.publicApi.connections.syncTarget(made.body.connectionId);
    expect(target).toEqual({
      connectionId: made.body.connectionId,
      workspaceId,
      prefix: '',
      streams: CHAT_STREAMS.map(({ name, syncMode }) => ({ name, syncMode })),
      source: {
        sourceId,
        connectorType: 'chat',
        credentials: { token: CHAT_TOKEN },
        settings: { start_date: '2024-01-01T00:00:00Z', lookback_window: 2, join_channels: false, channel_filter: ['general'] },
      },
      destination: {
        destinationId,
        destinationType: 'sqlite',
        configuration: { destinationType: 'sqlite', destination_path: `/local/${destinationId}.sqlite` },
      },
    });
    await expectNowhereInClear(fx, [CHAT_TOKEN]);
  });

  it('takes the streams, modes, prefix and cron schedule given, and patches them', async () => {
    const made = await connect({
      name: 'chosen',
      prefix: 'slack_',
      configurations: {
        streams: [{ name: 'channel_messages', syncMode: 'incremental_append', cursorField: ['ts'], primaryKey: [['channel_id'], ['ts']] }, { name: 'users' }],
      },
      schedule: { scheduleType: 'cron', cronExpression: '0 0 12 * * ? UTC' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({
      name: 'chosen',
      prefix: 'slack_',
      schedule: { scheduleType: 'cron', cronExpression: '0 0 12 * * ? UTC' },
      configurations: { streams: [{ ...CHAT_STREAMS[2], syncMode: 'incremental_append' }, CHAT_STREAMS[0]] },
    });
    const next = Number((await row(made.body.connectionId))?.next_run_at);
    expect(new Date(next).toISOString()).toMatch(/T12:00:00.000Z$/);
    expect(next).toBeGreaterThan(Date.now());

    const path = `/connections/${made.body.connectionId}`;
    const patched = await call('patch', '/connections/{connectionId}', path, {
      body: { configurations: { streams: [{ name: 'channels' }] }, status: 'inactive', namespaceDefinition: 'custom_format', namespaceFormat: 'chat' },
    });
    expect(patched.body).toEqual({
      ...made.body,
      status: 'inactive',
      namespaceDefinition: 'custom_format',
      namespaceFormat: 'chat',
      configurations: { streams: [CHAT_STREAMS[1]] },
    });
    expect(await row(made.body.connectionId)).toEqual({ next_run_at: null });
    const manual = await call('patch', '/connections/{connectionId}', path, {
      body: { schedule: { scheduleType: 'manual' }, status: 'active', name: 'renamed' },
    });
    expect(manual.body).toMatchObject({ name: 'renamed', status: 'active', schedule: { scheduleType: 'manual' }, prefix: 'slack_' });
    const fiveFields = await call('patch', '/connections/{connectionId}', path, {
      body: { schedule: { scheduleType: 'cron', cronExpression: '*/15 * * * *' } },
    });
    expect(fiveFields.body.schedule).toEqual({ scheduleType: 'cron', cronExpression: '*/15 * * * *' });
    expect(Number((await row(made.body.connectionId))?.next_run_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  });

  it('refuses unknown streams, unsupported modes, fixed keys changed, bad cron expressions and ends in two workspaces', async () => {
    const streams = (entries: unknown[]) => ({ sourceId, destinationId, configurations: { streams: entries } });
    const elsewhere = (await call('post', '/workspaces', '/workspaces', { body: { name: 'connections-elsewhere' } })).body.workspaceId as string;
    const farDestination = (await destination({ destinationType: 'sqlite' }, 'far', elsewhere)).body.destinationId;
    for (const [body, loc, words] of [
      [streams([{ name: 'emails' }]), 'body.configurations.streams.0.name', '"emails"'],
      [streams([{ name: 'users' }, { name: 'users' }]), 'body.configurations.streams.1.name', 'twice'],
      [streams([{ name: 'users', syncMode: 'incremental_append' }]), 'body.configurations.streams.0.syncMode', '"users" does not support incremental_append'],
      [streams([{ name: 'channel_messages', syncMode: 'full_refresh_append' }]), 'body.configurations.streams.0.syncMode', 'full_refresh_append'],
      [streams([{ name: 'channel_messages', cursorField: ['edited'] }]), 'body.configurations.streams.0.cursorField', '["ts"]'],
      [streams([{ name: 'users', primaryKey: [['name']] }]), 'body.configurations.streams.0.primaryKey', '[["id"]]'],
      [{ sourceId, destinationId, schedule: { scheduleType: 'cron' } }, 'body.schedule.cronExpression', 'required'],
      [{ sourceId, destinationId, schedule: { scheduleType: 'cron', cronExpression: '61 * * * *' } }, 'body.schedule.cronExpression', 'cron'],
      [{ sourceId, destinationId, schedule: { scheduleType: 'cron', cronExpression: 'every day' } }, 'body.schedule.cronExpression', 'cron'],
      [{ sourceId, destinationId, schedule: { scheduleType: 'cron', cronExpression: '0 0 12 * * ? 2030' } }, 'body.schedule.cronExpression', 'year'],
      [{ sourceId, destinationId, schedule: { scheduleType: 'cron', cronExpression: '0 0 12 * * ? Mars/Base' } }, 'body.schedule.cronExpression', 'time zone'],
      [{ sourceId, destinationId, status: 'locked' }, 'body.status', 'enumeration'],
      [{ sourceId, destinationId: farDestination }, 'body.destinationId', 'another workspace'],
    ] as const) {
      const answer = await raw('post', '/connections', body);
      expect([answer.status, answer.contentType], JSON.stringify(body)).toEqual([400, 'application/problem+json']);
      expect(answer.body.issues?.[0]?.loc.join('.'), JSON.stringify(answer.body)).toBe(loc);
      expect(answer.body.detail).toContain(words);
    }
    const unknownSource = await connect({ sourceId: randomUUID() });
    expect([unknownSource.status, unknownSource.body.type]).toEqual([404, 'urn:plugboard:error:source_not_found']);
    const unknownDestination = await connect({ destinationId: randomUUID() });
    expect([unknownDestination.status, unknownDestination.body.type]).toEqual([404, 'urn:plugboard:error:destination_not_found']);
    const existing = await connect();
    const badPatch = await raw('patch', `/connections/${existing.body.connectionId}`, { configurations: { streams: [{ name: 'files' }] } });
    expect([badPatch.status, badPatch.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.configurations.streams.0.name']);
  });

  it('takes mappers, answers them with their ids and the AES key masked, and keeps the key when the answer is sent back', async () => {
    const aes = {
      algorithm: 'AES',
      targetField: 'text',
      fieldNameSuffix: '_encrypted',
      key: '00112233445566778899aabbccddeeff',
      mode: 'CBC',
      padding: 'PKCS5Padding',
    };
    const mappers = [
      { type: 'hashing', mapperConfiguration: { targetField: 'user', method: 'SHA-256', fieldNameSuffix: '_hashed' } },
      { type: 'encryption', mapperConfiguration: aes },
    ];
    // Sent unchecked against api_sdk.yaml: its MapperConfiguration oneOf admits no hashing mapper (one also matches field-filtering's open schema).
    const created = await raw('post', '/connections', { sourceId, destinationId, configurations: { streams: [{ name: 'channel_messages', mappers }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [stream] = created.body.configurations.streams;
    expect(stream.mappers.map((m: { id: string }) => m.id)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(stream.mappers[1].mapperConfiguration).toEqual({ ...aes, key: MASK });
    expect(JSON.stringify((await fx.server.hosted.publicApi.connections.syncTarget(created.body.connectionId)).streams)).toContain(aes.key);
    // The answer sent back as it is: the masked key is the stored one.
    const id = created.body.connectionId;
    const patched = await raw('patch', `/connections/${id}`, { configurations: created.body.configurations });
    expect([patched.status, patched.body.configurations]).toEqual([200, created.body.configurations]);
    expect(JSON.stringify((await fx.server.hosted.publicApi.connections.syncTarget(id)).streams)).toContain(aes.key);
    const unknownMask = await raw('patch', `/connections/${id}`, {
      configurations: { streams: [{ name: 'channel_messages', mappers: [{ type: 'encryption', mapperConfiguration: { ...aes, key: MASK } }] }] },
    });
    expect([unknownMask.status, unknownMask.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.configurations.streams.0.mappers.0.mapperConfiguration.key']);
    const keyed = await raw('post', '/connections', {
      sourceId,
      destinationId,
      configurations: { streams: [{ name: 'channel_messages', mappers: [{ type: 'field-filtering', mapperConfiguration: { targetField: 'ts' } }] }] },
    });
    expect([keyed.status, keyed.body.issues?.[0]?.type]).toEqual([400, 'value_error.mapper_primary_key']);
    expect(keyed.body.detail).toContain('primary key');
    // Gone before the tests that check every listed connection against api_sdk.yaml, which admits no hashing mapper.
    expect((await fx.http(`v1/connections/${id}`, { method: 'DELETE', headers: bearer(token) })).statusCode).toBe(204);
  });

  it('pages connections and narrows them to workspaces', async () => {
    const other = (await call('post', '/workspaces', '/workspaces', { body: { name: 'connections-paging' } })).body.workspaceId as string;
    const source = (await call('post', '/sources', '/sources', { body: { name: 'paged slack', workspaceId: other, configuration: slack() } })).body.sourceId;
    const sink = (await destination({ destinationType: 'sqlite' }, 'paged sink', other)).body.destinationId;
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const name of names) await connect({ name, sourceId: source, destinationId: sink });
    const seen: string[] = [];
    let page = await call('get', '/connections', `/connections?workspaceIds=${other}&limit=2`);
    expect(page.body.previous).toBeUndefined();
    for (;;) {
      seen.push(...page.body.data.map((c: { name: string }) => c.name));
      if (!page.body.next) break;
      const next = new URL(page.body.next);
      expect(next.origin).toBe(TEST_PUBLIC_URL);
      page = await call('get', '/connections', `${next.pathname.replace(/^\/v1/, '')}${next.search}`);
      expect(page.body.previous).toMatch(/limit=2/);
    }
    expect(seen.sort()).toEqual(names);
    expect((await call('get', '/connections', `/connections?workspaceIds=${other}&tagIds=${randomUUID()}`)).body.data).toEqual([]);
    const all = await call('get', '/connections', '/connections?limit=100&includeDeleted=false');
    expect(all.body.data.length).toBeGreaterThan(names.length);
  });

  it("keeps organizations apart, and deletes a connection, a source's or destination's connections, a workspace's resources", async () => {
    const mine = await connect({ name: 'private' });
    const app = await fx.server.hosted.applications.create('Another org');
    const otherToken = await publicAccessToken(fx, app);
    const path = `/connections/${mine.body.connectionId}`;
    for (const method of ['get', 'patch', 'delete'] as const) {
      const answer = await call(method, '/connections/{connectionId}', path, {
        token: otherToken,
        ...(method === 'patch' ? { body: { name: 'stolen' } } : {}),
      });
      expect([answer.status, answer.body.type], method).toEqual([404, 'urn:plugboard:error:connection_not_found']);
    }
    expect((await call('get', '/connections', '/connections', { token: otherToken })).body.data).toEqual([]);
    const foreign = await call('post', '/connections', '/connections', { token: otherToken, body: { sourceId, destinationId } });
    expect(foreign.status).toBe(404);
    const otherDestination = await call('get', '/destinations/{destinationId}', `/destinations/${destinationId}`, { token: otherToken });
    expect(otherDestination.status).toBe(404);
    for (const id of [randomUUID(), 'nope']) expect((await call('get', '/connections/{connectionId}', `/connections/${id}`)).status).toBe(404);

    expect((await call('delete', '/connections/{connectionId}', path)).status).toBe(204);
    expect((await call('get', '/connections/{connectionId}', path)).status).toBe(404);
    expect((await call('delete', '/connections/{connectionId}', path)).status).toBe(404);
    await expect(fx.server.hosted.publicApi.connections.syncTarget(mine.body.connectionId)).rejects.toMatchObject({ status: 404 });

    // As Airbyte does: deleting a source or a destination deletes the connections using it.
    const ws = (await call('post', '/workspaces', '/workspaces', { body: { name: 'connections-doomed' } })).body.workspaceId as string;
    const source = (await call('post', '/sources', '/sources', { body: { name: 's', workspaceId: ws, configuration: slack() } })).body.sourceId;
    const sink = (await destination({ destinationType: 'sqlite' }, 'd', ws)).body.destinationId;
    const viaSource = (await connect({ sourceId: source, destinationId: sink })).body.connectionId;
    expect((await call('delete', '/sources/{sourceId}', `/sources/${source}`)).status).toBe(204);
    expect((await call('get', '/connections/{connectionId}', `/connections/${viaSource}`)).status).toBe(404);
    const source2 = (await call('post', '/sources', '/sources', { body: { name: 's2', workspaceId: ws, configuration: slack() } })).body.sourceId;
    const viaDestination = (await connect({ sourceId: source2, destinationId: sink })).body.connectionId;
    expect((await call('delete', '/destinations/{destinationId}', `/destinations/${sink}`)).status).toBe(204);
    expect((await call('get', '/connections/{connectionId}', `/connections/${viaDestination}`)).status).toBe(404);

    const sink2 = (await destination({ destinationType: 'sqlite' }, 'd2', ws)).body.destinationId;
    const last = (await connect({ sourceId: source2, destinationId: sink2 })).body.connectionId;
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${ws}`)).status).toBe(204);
    for (const [path, spec] of [
      [`/connections/${last}`, '/connections/{connectionId}'],
      [`/sources/${source2}`, '/sources/{sourceId}'],
      [`/destinations/${sink2}`, '/destinations/{destinationId}'],
    ]) {
      expect((await call('get', spec!, path!)).status, path).toBe(404);
    }
    for (const table of ['cloud_sources', 'cloud_destinations', 'cloud_connections']) {
      expect(await fx.server.hosted.cloudDb.all(`SELECT id FROM ${table} WHERE workspace_id = ?`, [ws]), table).toEqual([]);
    }
  });

  it('serves every destination and connection route under both roots, /v1 and /api/public/v1', async () => {
    for (const prefix of ['v1', 'api/public/v1']) {
      const duck = await call('post', '/destinations', '/destinations', {
        prefix,
        body: {
          name: `duck-${prefix}`,
          workspaceId,
          configuration: { destinationType: 'duckdb', destination_path: `/local/${prefix.replace(/\//g, '-')}.duckdb` },
        },
      });
      const dPath = `/destinations/${duck.body.destinationId}`;
      expect((await call('get', '/destinations/{destinationId}', dPath, { prefix })).body).toEqual(duck.body);
      expect((await call('get', '/destinations', `/destinations?limit=100`, { prefix, extension: true })).body.data).toContainEqual(duck.body);
      expect((await call('patch', '/destinations/{destinationId}', dPath, { prefix, body: { name: `renamed-${prefix}` } })).status).toBe(200);
      expect(
        (await call('put', '/destinations/{destinationId}', dPath, { prefix, body: { name: `put-${prefix}`, configuration: duck.body.configuration } })).status,
      ).toBe(200);

      const made = await call('post', '/connections', '/connections', { prefix, body: { sourceId, destinationId: duck.body.destinationId } });
      const cPath = `/connections/${made.body.connectionId}`;
      expect((await call('get', '/connections/{connectionId}', cPath, { prefix })).body).toEqual(made.body);
      expect((await call('get', '/connections', `/connections?workspaceIds=${workspaceId}&limit=100`, { prefix })).body.data).toContainEqual(made.body);
      expect((await call('patch', '/connections/{connectionId}', cPath, { prefix, body: { prefix: 'p_' } })).body.prefix).toBe('p_');
      expect((await call('delete', '/connections/{connectionId}', cPath, { prefix })).status).toBe(204);
      expect((await call('delete', '/destinations/{destinationId}', dPath, { prefix })).status).toBe(204);
    }
  });

  it('answers as its own /openapi.json declares, every destination and connection operation with a 2xx at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance
      .operationKeys({ tagged: 'public API' })
      .filter((key) => /\/(destinations|connections)/.test(key) && !/\/(web_backend|definitions)\//.test(key));
    expect(own.length).toBeGreaterThanOrEqual(23);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
