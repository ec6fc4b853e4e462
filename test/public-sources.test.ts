import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameBasedUuid } from '../core/hosted/cloud-api/definition-ids.ts';
import { SourceKinds } from '../core/hosted/cloud-api/source-kinds.ts';
import { SERVER_SCHEMAS } from '../core/hosted/types.generated.ts';
import { createRuntime } from '../index.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, TEST_PUBLIC_URL, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { compileOperations, expectNowhereInClear, publicApiCalls, publicAccessToken } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * Sources of the public cloud API against Airbyte's official description (every request and answer
 * checked against api_sdk.yaml, the checks against config.yaml): the official slack and google-drive
 * shapes, Plugboard's own chat and file-storage shapes, secrets masked and sealed, organizations apart.
 */

const spec = PublicApiSpec.load();
/** The official operations these tests call, compiled before the server starts (see compileOperations). */
const OPERATIONS = [
  'post /sources',
  'get /sources',
  'get /sources/{sourceId}',
  'patch /sources/{sourceId}',
  'put /sources/{sourceId}',
  'post /v1/sources/check_connection',
];
const MASK = '**********';
const SLACK_DEFINITION = 'c2281cee-86f9-4a86-bb48-d23286b4c7bd';
const CLIENT_SECRET = 'slack-client-secret-7f3a';
const REFRESH_TOKEN = 'drive-refresh-token-91be';

const slackToken = (extra: Record<string, unknown> = {}) => ({
  sourceType: 'slack',
  credentials: { option_title: 'API Token Credentials', api_token: CHAT_TOKEN },
  start_date: '2024-01-01T00:00:00Z',
  lookback_window: 7,
  join_channels: true,
  ...extra,
});
const slackOAuth = () => ({
  ...slackToken(),
  credentials: { option_title: 'Default OAuth2.0 authorization', client_id: 'slack-client', client_secret: CLIENT_SECRET, access_token: CHAT_TOKEN },
});
const googleDrive = (credentials: Record<string, unknown> = { access_token: DRIVE_TOKEN }) => ({
  sourceType: 'google-drive',
  folder_url: 'https://drive.google.com/drive/folders/plugboard-test',
  streams: [{ name: 'documents', format: { filetype: 'unstructured' } }],
  credentials: { auth_type: 'Client', client_id: 'drive-client', client_secret: CLIENT_SECRET, refresh_token: REFRESH_TOKEN, ...credentials },
});

/** Plugboard's own shapes, checked against its schemas (the official oneOf does not list them). */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const ownShape = { chat: ajv.compile(SERVER_SCHEMAS['source-chat.json']), 'file-storage': ajv.compile(SERVER_SCHEMAS['source-file-storage.json']) };

describe.each(BACKENDS)('public cloud API sources on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let workspaceId: string;
  const answers: Answer[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'sources-ws' } })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  const create = (configuration: Record<string, unknown>, options: { name?: string; workspace?: string; extension?: boolean; definitionId?: string } = {}) =>
    call('post', '/sources', '/sources', {
      body: {
        name: options.name ?? 'a source',
        workspaceId: options.workspace ?? workspaceId,
        configuration,
        ...(options.definitionId ? { definitionId: options.definitionId } : {}),
      },
      extension: options.extension,
    });
  const issuesOf = (answer: { body: { issues?: Array<{ loc: Array<string | number> }> } }) =>
    answer.body.issues && [...new Set(answer.body.issues.map((issue) => issue.loc.join('.')))];
  const raw = (method: 'post' | 'patch' | 'put', path: string, json: unknown) =>
    fx.http(`v1${path}`, { method: method.toUpperCase() as 'POST', headers: bearer(token), json }).then((response) => ({
      status: response.statusCode,
      body: JSON.parse(response.body),
      contentType: response.headers['content-type'],
    }));

  it('creates a Slack source in the official shape, its secrets masked in every answer and sealed at rest', async () => {
    const made = await create(slackOAuth(), { name: 'Slack (OAuth)' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({
      name: 'Slack (OAuth)',
      sourceType: 'slack',
      definitionId: SLACK_DEFINITION,
      workspaceId,
      configuration: { ...slackOAuth(), credentials: { ...slackOAuth().credentials, client_secret: MASK, access_token: MASK } },
    });
    expect(made.body.createdAt).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(made.body.createdAt).toBeLessThan(Date.now() / 1000 + 1);
    const byToken = await create(slackToken({ channel_filter: ['general'] }), { name: 'Slack (token)' });
    expect(byToken.body.configuration.credentials).toEqual({ option_title: 'API Token Credentials', api_token: MASK });

    const got = await call('get', '/sources/{sourceId}', `/sources/${made.body.sourceId}`);
    expect(got.body).toEqual(made.body);
    const listed = await call('get', '/sources', `/sources?workspaceIds=${workspaceId}&limit=100`);
    expect(listed.body.data).toEqual(expect.arrayContaining([made.body, byToken.body]));
    expect(JSON.stringify(listed.body)).not.toContain(CHAT_TOKEN);
    await expectNowhereInClear(fx, [CHAT_TOKEN, CLIENT_SECRET]);
  });

  it("takes Plugboard's own chat and file-storage shapes, and a source named by its definition id only", async () => {
    const chat = await create({ sourceType: 'chat', credentials: { token: CHAT_TOKEN }, lookback_window: 3 }, { extension: true });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(chat.body).toMatchObject({ sourceType: 'chat', configuration: { sourceType: 'chat', credentials: { token: MASK }, lookback_window: 3 } });
    expect(ownShape.chat(chat.body.configuration), JSON.stringify(ownShape.chat.errors)).toBe(true);
    const files = await create({ sourceType: 'file-storage', credentials: { access_token: DRIVE_TOKEN } }, { extension: true });
    expect(files.status, JSON.stringify(files.body)).toBe(200);
    expect(ownShape['file-storage'](files.body.configuration)).toBe(true);
    // The chat type's definition id is stable: the same for another source of it.
    const again = await create({ credentials: { access_token: CHAT_TOKEN } }, { extension: true, definitionId: chat.body.definitionId });
    expect(again.body).toMatchObject({ sourceType: 'chat', definitionId: chat.body.definitionId, configuration: { sourceType: 'chat' } });
    // The official schema asks for sourceType even when definitionId names the type, as its text allows.
    const byId = await create({ ...slackToken(), sourceType: undefined }, { definitionId: SLACK_DEFINITION.toUpperCase(), extension: true });
    expect(byId.body.sourceType).toBe('slack');
    const mismatch = await create(slackToken(), { definitionId: chat.body.definitionId });
    expect([mismatch.status, issuesOf(mismatch)]).toEqual([400, ['body.definitionId']]);
    await expectNowhereInClear(fx, [CHAT_TOKEN, DRIVE_TOKEN]);
  });

  it('takes google-drive in the official shape with the access token Plugboard reads with, and the OAuth client that renews it', async () => {
    const drive = await create(googleDrive());
    expect(drive.status, JSON.stringify(drive.body)).toBe(200);
    expect(drive.body).toMatchObject({
      sourceType: 'google-drive',
      definitionId: '9f8dda77-1048-4368-815b-269bf54ee9b8',
      configuration: { credentials: { auth_type: 'Client', client_id: MASK, client_secret: MASK, refresh_token: MASK, access_token: MASK } },
    });
    const target = await fx.server.hosted.publicApi.sources.actors.open(drive.body.sourceId);
    expect(target?.kind.connectorType).toBe('file-storage');
    expect(target?.kind.credentialsOf(target.configuration)).toEqual({
      access_token: DRIVE_TOKEN,
      refresh_token: REFRESH_TOKEN,
      client_id: 'drive-client',
      client_secret: CLIENT_SECRET,
    });
    const withoutToken = await create(googleDrive({ access_token: undefined }));
    expect([withoutToken.status, issuesOf(withoutToken)]).toEqual([400, ['body.configuration.credentials.access_token']]);
    await expectNowhereInClear(fx, [DRIVE_TOKEN, REFRESH_TOKEN, CLIENT_SECRET]);
  });

  it('refuses invalid configurations and refused credentials with problem details naming the fields', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...slackToken(), credentials: undefined }, ['body.configuration.credentials']],
      [slackToken({ start_date: '2024-01-01' }), ['body.configuration.start_date']],
      [slackToken({ lookback_window: 400 }), ['body.configuration.lookback_window']],
      [{ ...slackToken(), credentials: { option_title: 'API Token Credentials' } }, ['body.configuration.credentials.api_token']],
      [{ ...slackToken(), credentials: { option_title: 'API Token Credentials', api_token: 'two\nlines' } }, ['body.configuration.credentials.token']],
      [{ sourceType: 'chat', credentials: { token: CHAT_TOKEN }, colour: 'blue' }, ['body.configuration.colour']],
      [{ sourceType: 'chat', credentials: { token: MASK } }, ['body.configuration.credentials.token']],
      [{ sourceType: 'postgres', host: 'db' }, ['body.configuration.sourceType']],
      [{ credentials: { token: CHAT_TOKEN } }, ['body.configuration.sourceType']],
    ];
    for (const [configuration, locs] of cases) {
      const answer = await raw('post', '/sources', { name: 'bad', workspaceId, configuration });
      expect([answer.status, answer.contentType], JSON.stringify(configuration)).toEqual([400, 'application/problem+json']);
      expect(issuesOf(answer), JSON.stringify(answer.body)).toEqual(locs);
      expect(answer.body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, detail: expect.any(String) });
    }
    const refused = await create(slackToken({ credentials: { option_title: 'API Token Credentials', api_token: 'xoxb-not-a-real-token' } }));
    expect([refused.status, refused.body.type]).toEqual([400, 'urn:plugboard:error:credentials_rejected']);
    const elsewhere = await create(slackToken(), { workspace: randomUUID() });
    expect([elsewhere.status, elsewhere.body.type]).toEqual([404, 'urn:plugboard:error:workspace_not_found']);
    const listed = await call('get', '/sources', `/sources?workspaceIds=${workspaceId}&limit=100`, { extension: true });
    expect(listed.body.data.map((source: { name: string }) => source.name)).not.toContain('bad');
  });

  it('patches the fields given, keeps a secret sent back masked, and puts a whole configuration', async () => {
    const made = await create(slackOAuth(), { name: 'to change' });
    const path = `/sources/${made.body.sourceId}`;
    const opened = async () => (await fx.server.hosted.publicApi.sources.actors.open(made.body.sourceId))!.configuration;

    const renamed = await call('patch', '/sources/{sourceId}', path, { body: { name: 'changed' } });
    expect(renamed.body).toEqual({ ...made.body, name: 'changed' });
    // Only the fields to change (the official schema would want the whole configuration).
    const merged = await call('patch', '/sources/{sourceId}', path, { body: { configuration: { sourceType: 'slack', lookback_window: 30 } }, extension: true });
    expect(merged.body.configuration).toEqual({ ...made.body.configuration, lookback_window: 30 });
    expect(await opened()).toMatchObject({ lookback_window: 30, credentials: { access_token: CHAT_TOKEN, client_secret: CLIENT_SECRET } });
    // A client that read the source writes it back, masks and all: the stored secrets stay.
    const back = await call('patch', '/sources/{sourceId}', path, { body: { configuration: { ...merged.body.configuration, join_channels: false } } });
    expect(back.body.configuration.join_channels).toBe(false);
    expect((await opened()).credentials).toEqual(slackOAuth().credentials);

    const put = await call('put', '/sources/{sourceId}', path, {
      body: {
        name: 'put',
        configuration: { ...slackToken({ lookback_window: 1 }), credentials: { option_title: 'API Token Credentials', api_token: CHAT_TOKEN } },
      },
    });
    expect(put.body).toMatchObject({
      name: 'put',
      configuration: { lookback_window: 1, credentials: { option_title: 'API Token Credentials', api_token: MASK } },
    });
    expect(await opened()).toEqual(slackToken({ lookback_window: 1 }));
    const putBack = await call('put', '/sources/{sourceId}', path, { body: { name: 'put again', configuration: put.body.configuration } });
    expect(putBack.body.configuration).toEqual(put.body.configuration);
    expect((await opened()).credentials).toEqual(slackToken().credentials);

    for (const [body, loc] of [
      [{ configuration: { credentials: { option_title: 'API Token Credentials', api_token: 'xoxb-revoked' } } }, undefined],
      [{ configuration: { sourceType: 'chat' } }, 'body.configuration.sourceType'],
      [{ workspaceId: randomUUID() }, 'body.workspaceId'],
      [{ configuration: { lookback_window: -1 } }, 'body.configuration.lookback_window'],
    ] as const) {
      const answer = await raw('patch', path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.issues?.[0]?.loc.join('.')).toBe(loc);
    }
    expect(await opened()).toEqual(slackToken({ lookback_window: 1 }));
    // Its own workspace is no move.
    expect((await call('patch', '/sources/{sourceId}', path, { body: { workspaceId: workspaceId.toUpperCase() } })).status).toBe(200);
  });

  it('checks a stored source through the config API: succeeded, or failed with the upstream refusal', async () => {
    const made = await create(slackToken(), { name: 'checked' });
    const check = () => call('post', '/v1/sources/check_connection', '/v1/sources/check_connection', { prefix: 'api', body: { sourceId: made.body.sourceId } });
    const ok = await check();
    expect(ok.body).toMatchObject({ status: 'succeeded', jobInfo: { configType: 'check_connection_source', configId: made.body.sourceId, succeeded: true } });
    fx.chatSandbox.addFault({ method: 'auth.test', status: 200, error: 'token_revoked' });
    const refused = await check();
    expect(refused.body).toMatchObject({ status: 'failed', message: expect.stringContaining('token_revoked'), jobInfo: { succeeded: true } });
    const unknown = await call('post', '/v1/sources/check_connection', '/v1/sources/check_connection', { prefix: 'api', body: { sourceId: randomUUID() } });
    expect([unknown.status, unknown.body.error_code, typeof unknown.body.message, typeof unknown.body.detail]).toEqual([
      404,
      'source_not_found',
      'string',
      'string',
    ]);
  });

  it('pages lists, narrows them to workspaces, at /v1 and /api/public/v1 alike', async () => {
    const other = (await call('post', '/workspaces', '/workspaces', { body: { name: 'sources-paging' } })).body.workspaceId as string;
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names) await create(slackToken(), { name, workspace: other });
    const seen: string[] = [];
    let page = await call('get', '/sources', `/sources?workspaceIds=${other}&limit=2`, { prefix: 'api/public/v1' });
    expect(page.body.previous).toBeUndefined();
    for (;;) {
      seen.push(...page.body.data.map((source: { name: string }) => source.name));
      if (!page.body.next) break;
      const next = new URL(page.body.next);
      expect(next.origin).toBe(TEST_PUBLIC_URL);
      page = await call('get', '/sources', `${next.pathname.replace(/^\/api\/public\/v1/, '')}${next.search}`, { prefix: 'api/public/v1' });
      expect(page.body.previous).toMatch(/limit=2/);
    }
    expect(seen.sort()).toEqual(names);
    const both = await call('get', '/sources', `/sources?workspaceIds=${other},${workspaceId}&limit=100&includeDeleted=true`, { extension: true });
    expect(both.body.data.length).toBeGreaterThan(names.length);
    expect(new Set(both.body.data.map((source: { workspaceId: string }) => source.workspaceId))).toEqual(new Set([other, workspaceId]));
  });

  it("keeps organizations apart, answers unknown ids with a 404, and deletes a source and its workspace's sources", async () => {
    const mine = await create(slackToken(), { name: 'private' });
    const app = await fx.server.hosted.applications.create('Another org');
    const otherToken = await publicAccessToken(fx, app);
    const path = `/sources/${mine.body.sourceId}`;
    for (const method of ['get', 'patch', 'put', 'delete'] as const) {
      const body = method === 'patch' ? { name: 'stolen' } : method === 'put' ? { name: 'stolen', configuration: slackToken() } : undefined;
      const answer = await call(method, '/sources/{sourceId}', path, { token: otherToken, body });
      expect([answer.status, answer.body.type], method).toEqual([404, 'urn:plugboard:error:source_not_found']);
    }
    expect((await call('get', '/sources', '/sources?limit=100', { token: otherToken })).body.data).toEqual([]);
    const foreign = await call('post', '/sources', '/sources', { token: otherToken, body: { name: 'x', workspaceId, configuration: slackToken() } });
    expect(foreign.status).toBe(404);
    for (const id of [randomUUID(), 'not-a-uuid']) expect((await call('get', '/sources/{sourceId}', `/sources/${id}`)).status).toBe(404);

    expect((await call('delete', '/sources/{sourceId}', path)).status).toBe(204);
    expect((await call('get', '/sources/{sourceId}', path)).status).toBe(404);
    expect((await call('delete', '/sources/{sourceId}', path)).status).toBe(404);

    const doomed = (await call('post', '/workspaces', '/workspaces', { body: { name: 'doomed-sources' } })).body.workspaceId as string;
    const inDoomed = await create(slackToken(), { workspace: doomed });
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${doomed}`)).status).toBe(204);
    expect((await call('get', '/sources/{sourceId}', `/sources/${inDoomed.body.sourceId}`)).status).toBe(404);
    expect(await fx.server.hosted.cloudDb.all('SELECT id FROM cloud_sources WHERE workspace_id = ?', [doomed])).toEqual([]);
  });

  it('serves every source route under both roots, /v1 and /api/public/v1', async () => {
    for (const prefix of ['v1', 'api/public/v1']) {
      const made = await call('post', '/sources', '/sources', { prefix, body: { name: `roots-${prefix}`, workspaceId, configuration: slackToken() } });
      const path = `/sources/${made.body.sourceId}`;
      expect((await call('get', '/sources/{sourceId}', path, { prefix })).body).toEqual(made.body);
      expect((await call('get', '/sources', `/sources?workspaceIds=${workspaceId}&limit=100`, { prefix, extension: true })).body.data).toContainEqual(
        made.body,
      );
      expect((await call('patch', '/sources/{sourceId}', path, { prefix, body: { name: `renamed-${prefix}` } })).body.name).toBe(`renamed-${prefix}`);
      const put = await call('put', '/sources/{sourceId}', path, { prefix, body: { name: `put-${prefix}`, configuration: made.body.configuration } });
      expect(put.body).toEqual({ ...made.body, name: `put-${prefix}` });
      expect((await call('delete', '/sources/{sourceId}', path, { prefix })).status).toBe(204);
    }
  });

  it('answers as its own /openapi.json declares, every source operation with a 2xx at least once', async () => {
    // This server's own list of sources to reconnect (its behaviour: test/source-reauthorization.test.ts), under both prefixes.
    for (const prefix of ['v1', 'api/public/v1']) {
      const listed = await fx.http.get(`${prefix}/workspaces/${workspaceId}/sources_needing_reauthorization`, { headers: bearer(token) });
      expect(listed.statusCode).toBe(200);
    }
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    // initiateOAuth: test/oauth-flow.test.ts.
    const own = conformance.operationKeys({ tagged: 'public API' }).filter((key) => /\/sources/.test(key) && !/\/(initiateOAuth|definitions\/)/.test(key));
    expect(own.length).toBeGreaterThanOrEqual(13);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});

describe("a plugin's source type", () => {
  it("takes its credentials by the plugin's auth and nothing else, under a stable definition id", async () => {
    const runtime = await createRuntime({ connectors: ['./test/fixtures/weather-connector/index.ts'] });
    const checked: unknown[] = [];
    const kinds = new SourceKinds(runtime, async (type, _id, credentials) => {
      checked.push([type, credentials]);
    });
    const weather = kinds.byName('weather')!;
    expect(weather).toMatchObject({ connectorType: 'weather', definitionId: nameBasedUuid('source/weather') });
    expect(kinds.byDefinitionId(weather.definitionId)).toBe(weather);
    expect(weather.definitionId).not.toBe(kinds.byName('chat')!.definitionId);
    const loc = ['body', 'configuration'];
    weather.validate({ sourceType: 'weather', credentials: { token: 'api-key' } }, loc);
    await weather.check({ sourceType: 'weather', credentials: { token: 'api-key' } }, { id: 'id', workspaceId: 'workspace' });
    expect(checked).toEqual([['weather', { token: 'api-key' }]]);
    const issue = (configuration: Record<string, unknown>) => {
      try {
        weather.validate(configuration, loc);
      } catch (error) {
        return (error as { issues: Array<{ loc: string[] }> }).issues[0]!.loc.join('.');
      }
      return undefined;
    };
    // The weather API takes an API key (token), not OAuth; no replication config: no other field.
    expect(issue({ sourceType: 'weather', credentials: { access_token: 'oauth' } })).toBe('body.configuration.credentials.access_token');
    expect(issue({ sourceType: 'weather', credentials: { token: 'api-key' }, start_date: '2024-01-01T00:00:00Z' })).toBe('body.configuration.start_date');
    expect(issue({ sourceType: 'weather' })).toBe('body.configuration.credentials');
  });
});
