import { readFileSync } from 'node:fs';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { type CallAnswer, compileOperations, publicApiCalls, publicAccessToken, settledJob } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * Custom declarative source definitions of the public cloud API against Airbyte's official
 * description (every request and answer checked against api_sdk.yaml): a Plugboard declarative
 * manifest of the chat sandbox's users.list, published as JSON and as YAML, checked as a loaded
 * connector is, then run without code: a source of it, a connection to SQLite, a sync job. A second
 * server on the same database registers the definition, and its updates, when it first needs them.
 */

const spec = PublicApiSpec.load();
const DEFINITIONS = '/workspaces/{workspaceId}/definitions/declarative_sources';
const DEFINITION = `${DEFINITIONS}/{definitionId}`;
const OPERATIONS = [
  `post ${DEFINITIONS}`,
  `get ${DEFINITIONS}`,
  `get ${DEFINITION}`,
  `put ${DEFINITION}`,
  `delete ${DEFINITION}`,
  'post /sources',
  'get /sources/{sourceId}',
  'post /destinations',
  'post /connections',
  'get /connections/{connectionId}',
  'post /jobs',
  'get /jobs/{jobId}',
  'post /v1/sources/check_connection',
];
const MASK = '**********';
/** The docs' example manifest (Slack's users.list), which these tests publish against the chat sandbox. */
const EXAMPLE = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');

type Manifest = Record<string, any>;

/** The chat sandbox's conversations.list, which an update adds to the manifest. */
const channelsList = {
  entity: 'channels',
  action: 'list',
  description: 'The channels (conversations.list).',
  params: { type: 'object', properties: { cursor: { type: 'string' }, limit: { type: 'integer' } }, additionalProperties: false },
  record: { type: 'object', properties: { id: { type: 'string' }, name: { type: ['string', 'null'] } }, required: ['id'] },
  meta: { type: 'object', properties: { next_cursor: { type: ['string', 'null'] } } },
  request: { method: 'GET', path: '/conversations.list' },
  response: { records: 'channels', meta: { next_cursor: 'response_metadata.next_cursor' } },
  paginated: true,
};

describe.each(BACKENDS)('declarative source definitions on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let workspaceId: string;
  let otherWorkspaceId: string;
  /** The JSON-published definition, which the later tests run. */
  let definitionId: string;
  const answers: Answer[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  /** The docs' example, of type `type`, calling the chat sandbox. */
  const exampleYaml = (type: string) => EXAMPLE.replace('type: team-members', `type: ${type}`).replace('https://slack.com/api', fx.chatSandbox.url);
  /** As an object, listing users 7 at a time (so a sync reads several pages). */
  const manifest = (type = 'team-users'): Manifest => {
    const parsed = parse(exampleYaml(type)) as Manifest;
    return { ...parsed, syncStreams: { users: { params: { limit: 7 }, primaryKey: ['id'] } } };
  };
  const definitions = (workspace = workspaceId) => `/workspaces/${workspace}/definitions/declarative_sources`;
  const publish = (body: Record<string, unknown>, options: { workspace?: string; token?: string } = {}) =>
    call('post', DEFINITIONS, definitions(options.workspace), { body: { workspaceId: options.workspace ?? workspaceId, ...body }, token: options.token });
  /** A YAML manifest is text, where the official schema has an object: the request is checked with the object it parses to. */
  const sendYaml = async (
    method: 'post' | 'put',
    specPath: string,
    path: string,
    body: { manifest: string } & Record<string, unknown>,
  ): Promise<CallAnswer> => {
    expect(spec!.requestProblems(method, specPath, { ...body, manifest: parse(body.manifest) })).toEqual([]);
    const response = await fx.http(`v1${path}`, { method: method.toUpperCase() as 'POST', headers: bearer(token), json: body });
    const answer = { status: response.statusCode, body: JSON.parse(response.body) };
    if (answer.status < 300) expect(spec!.responseProblems(method, specPath, answer.status, answer.body)).toEqual([]);
    return answer;
  };
  const createSource = (configuration: Record<string, unknown>, options: { definitionId?: string; workspace?: string } = {}) =>
    call('post', '/sources', '/sources', {
      body: {
        name: 'team members',
        workspaceId: options.workspace ?? workspaceId,
        configuration,
        ...(options.definitionId ? { definitionId: options.definitionId } : {}),
      },
      // Plugboard's own configuration shape, outside the official oneOf.
      extension: true,
    });
  const issuesOf = (answer: CallAnswer) => [...new Set((answer.body.issues as Array<{ loc: Array<string | number> }>).map((issue) => issue.loc.join('.')))];
  const otherOrganizationToken = async () => {
    const other = await fx.server.hosted.applications.create(`another organization ${randomUUID()}`);
    const answer = await fx.http.post('v1/applications/token', { json: { client_id: other.client_id, client_secret: other.client_secret } });
    return (JSON.parse(answer.body) as { access_token: string }).access_token;
  };

  const settled = (jobId: number, caller = call) => settledJob(caller, jobId);

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'declarative-ws' } })).body.workspaceId;
    otherWorkspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'declarative-other-ws' } })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('publishes a manifest given as JSON, and lists and gets it (also under /api/public/v1)', async () => {
    const made = await publish({ name: 'Team users', manifest: manifest() });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toEqual({ id: expect.any(String), name: 'Team users', manifest: manifest(), version: 1 });
    definitionId = made.body.id;

    const got = await call('get', DEFINITION, `${definitions()}/${definitionId}`);
    expect(got.body).toEqual(made.body);
    const viaPublic = await call('get', DEFINITION, `${definitions()}/${definitionId.toUpperCase()}`, { prefix: 'api/public/v1' });
    expect(viaPublic.body).toEqual(made.body);
    const listed = await call('get', DEFINITIONS, definitions());
    expect(listed.body).toEqual({ data: [made.body] });
    expect((await call('get', DEFINITIONS, definitions(otherWorkspaceId))).body).toEqual({ data: [] });
  });

  it('publishes a YAML manifest (the docs example), answered as the object it parses to, a page at a time', async () => {
    const made = await sendYaml('post', DEFINITIONS, definitions(), { workspaceId, name: 'Team members (YAML)', manifest: exampleYaml('team-members') });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ name: 'Team members (YAML)', manifest: parse(exampleYaml('team-members')), version: 1 });
    expect(made.body.manifest.transport.errors.failureInBody).toEqual({ path: 'ok', equals: false });

    const first = await call('get', DEFINITIONS, `${definitions()}?limit=1`);
    expect(first.body.data.map((definition: { id: string }) => definition.id)).toEqual([definitionId]);
    expect(first.body.next).toContain('offset=1');
    const second = await call('get', DEFINITIONS, `${definitions()}?limit=1&offset=1`);
    expect(second.body.data).toEqual([made.body]);
    expect(second.body.next).toBeUndefined();
    expect(second.body.previous).toContain('offset=0');
  });

  it('refuses an invalid manifest with every issue, pointing into it', async () => {
    const valid = manifest('checked');
    const [usersList, identity] = valid.actions as Manifest[];
    const cases: Array<[string, Manifest, string[], RegExp?]> = [
      ['missing fields', { type: 'broken' }, ['displayName', 'defaultBaseUrl', 'auth', 'transport', 'actions']],
      [
        'a schema that does not compile',
        { ...valid, actions: [{ ...usersList, params: { ...usersList!.params, requird: ['limit'] } }, identity] },
        [''],
        /unknown keyword "requird"/,
      ],
      ['an unknown field', { ...valid, colour: 'blue' }, ['colour'], /unknown field `colour`/],
      ['an unknown field of an action', { ...valid, actions: [{ ...usersList, request: { ...usersList!.request, verb: 'GET' } }, identity] }, ['actions.0']],
      ['hooks, which are code', { ...valid, actions: [{ ...usersList, hooks: { transformResponse: 'body => body' } }, identity] }, ['actions.0.hooks']],
      ['replicate, which is code', { ...valid, replicate: 'async () => {}' }, ['replicate']],
      [
        'failureInBody as code',
        { ...valid, transport: { ...valid.transport, errors: { ...valid.transport.errors, failureInBody: 'body => !body.ok' } } },
        ['transport.errors.failureInBody'],
      ],
      ['a built-in type', { ...valid, type: 'chat' }, ['type'], /source type of this server/],
      ["Airbyte's name of a built-in", { ...valid, type: 'slack' }, ['type']],
      ["the server's own names", { ...valid, type: 'declarative-mine' }, ['type']],
      ['a base URL not http(s)', { ...valid, defaultBaseUrl: 'ftp://example.com/api' }, ['defaultBaseUrl']],
      ['a base URL that does not parse', { ...valid, defaultBaseUrl: 'http://exa mple.com' }, ['defaultBaseUrl']],
      ['a check naming no action', { ...valid, check: { ...valid.check, entity: 'nobody' } }, ['check']],
    ];
    for (const [what, given, locs, message] of cases) {
      const answer = await publish({ name: what, manifest: given });
      expect([answer.status, answer.body.title], what).toEqual([400, 'Bad Request']);
      expect(issuesOf(answer), `${what}: ${JSON.stringify(answer.body)}`).toEqual(locs.map((loc) => ['body.manifest', loc].filter(Boolean).join('.')));
      if (message) expect(answer.body.detail, what).toMatch(message);
    }
    for (const [what, text] of [
      ['YAML that does not parse', 'type: [unclosed'],
      ['YAML that is no mapping', '- a list'],
    ]) {
      const response = await fx.http(`v1${definitions()}`, { method: 'POST', headers: bearer(token), json: { name: what, manifest: text } });
      expect([response.statusCode, response.headers['content-type']], what).toEqual([400, 'application/problem+json']);
      expect(
        JSON.parse(response.body).issues.map((issue: { loc: string[] }) => issue.loc.join('.')),
        what,
      ).toEqual(['body.manifest']);
    }
    const elsewhere = await publish({ name: 'elsewhere', manifest: valid, workspaceId: otherWorkspaceId });
    expect([elsewhere.status, issuesOf(elsewhere)]).toEqual([400, ['body.workspaceId']]);
    expect((await call('get', DEFINITIONS, definitions())).body.data).toHaveLength(2);
  });

  it("refuses a type the workspace's definitions have (409); finds nothing of another organization or workspace (404)", async () => {
    const twice = await publish({ name: 'again', manifest: manifest() });
    expect([twice.status, twice.body.type]).toEqual([409, 'urn:plugboard:error:declarative_source_type_exists']);
    // Another workspace has types of its own.
    const there = await publish({ name: 'there', manifest: manifest() }, { workspace: otherWorkspaceId });
    expect(there.status).toBe(200);

    const outsider = await otherOrganizationToken();
    const path = `${definitions()}/${definitionId}`;
    expect((await call('get', DEFINITIONS, definitions(), { token: outsider })).status).toBe(404);
    expect((await call('get', DEFINITION, path, { token: outsider })).status).toBe(404);
    expect((await publish({ name: 'intruder', manifest: manifest('intruder') }, { token: outsider })).status).toBe(404);
    expect((await call('put', DEFINITION, path, { body: { manifest: manifest() }, token: outsider })).status).toBe(404);
    expect((await call('delete', DEFINITION, path, { token: outsider })).status).toBe(404);
    const fromOtherWorkspace = await call('get', DEFINITION, `${definitions(otherWorkspaceId)}/${definitionId}`);
    expect([fromOtherWorkspace.status, fromOtherWorkspace.body.type]).toEqual([404, 'urn:plugboard:error:declarative_source_definition_not_found']);
    expect((await call('get', DEFINITION, `${definitions()}/${randomUUID()}`)).status).toBe(404);

    // Nor can a source of another workspace be made of it, by id or by name.
    const byId = await createSource({ credentials: { token: CHAT_TOKEN } }, { definitionId, workspace: otherWorkspaceId });
    expect([byId.status, issuesOf(byId)]).toEqual([400, ['body.definitionId']]);
    const byName = await createSource({ sourceType: `declarative-${definitionId}`, credentials: { token: CHAT_TOKEN } }, { workspace: otherWorkspaceId });
    expect([byName.status, issuesOf(byName)]).toEqual([400, ['body.configuration.sourceType']]);
    const theirs = await createSource({ sourceType: 'team-users', credentials: { token: CHAT_TOKEN } }, { workspace: otherWorkspaceId });
    expect(theirs.body.definitionId).toBe(there.body.id);
  });

  it('runs without code: a source of it (its credentials checked), a connection to SQLite, a sync job', async () => {
    const source = await createSource({ credentials: { token: CHAT_TOKEN } }, { definitionId });
    expect(source.status, JSON.stringify(source.body)).toBe(200);
    const sourceType = `declarative-${definitionId}`;
    expect(source.body).toMatchObject({ sourceType, definitionId, workspaceId, configuration: { sourceType, credentials: { token: MASK } } });
    const byType = await createSource({ sourceType: 'team-users', credentials: { access_token: CHAT_TOKEN } });
    expect([byType.status, byType.body.sourceType, byType.body.definitionId], JSON.stringify(byType.body)).toEqual([200, sourceType, definitionId]);
    const refused = await createSource({ credentials: { token: 'xoxb-not-a-real-token' } }, { definitionId });
    expect([refused.status, refused.body.type]).toEqual([400, 'urn:plugboard:error:credentials_rejected']);
    const checked = await call('post', '/v1/sources/check_connection', '/v1/sources/check_connection', {
      prefix: 'api',
      body: { sourceId: source.body.sourceId },
    });
    expect(checked.body.status).toBe('succeeded');

    const destination = await call('post', '/destinations', '/destinations', {
      body: { name: 'local file', workspaceId, configuration: { destinationType: 'sqlite', destination_path: '/local/declarative.sqlite' } },
      extension: true,
    });
    expect(destination.status, JSON.stringify(destination.body)).toBe(200);
    const connection = await call('post', '/connections', '/connections', {
      body: { sourceId: source.body.sourceId, destinationId: destination.body.destinationId, prefix: 'custom_' },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(200);
    expect(connection.body.configurations.streams).toEqual([{ name: 'users', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] }]);

    const job = await call('post', '/jobs', '/jobs', { body: { connectionId: connection.body.connectionId, jobType: 'sync' } });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const done = await settled(job.body.jobId);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const db = new Database(join(workspaceDataDir(fx.dataDir, workspaceId), 'local', 'declarative.sqlite'), { readonly: true });
    try {
      const ids = (db.prepare('SELECT id FROM custom_users').all() as Array<{ id: string }>).map((row) => row.id);
      expect(ids).toHaveLength(fx.chatSandbox.data.users.length);
      expect(new Set(ids)).toEqual(new Set(fx.chatSandbox.data.users.map((user) => user.id)));
    } finally {
      db.close();
    }
    expect(done.rowsSynced).toBe(fx.chatSandbox.data.users.length);
  });

  it('bumps the version at each update; another server registers a definition, and its updates, when it first needs them', async () => {
    const other = await fx.startAnotherServer();
    const otherCall = publicApiCalls({ ...fx, http: fx.http.extend({ prefixUrl: other.url }) }, spec!, () => token);
    // The other server never saw the definition: it finds it in the database.
    const source = await otherCall('post', '/sources', '/sources', {
      body: { name: 'made elsewhere', workspaceId, definitionId, configuration: { credentials: { token: CHAT_TOKEN } } },
      extension: true,
    });
    expect([source.status, source.body.definitionId], JSON.stringify(source.body)).toEqual([200, definitionId]);

    const path = `${definitions()}/${definitionId}`;
    const withChannels = { ...manifest(), actions: [...manifest().actions, channelsList] };
    const updated = await call('put', DEFINITION, path, { body: { manifest: withChannels } });
    expect(updated.body).toEqual({ id: definitionId, name: 'Team users', manifest: withChannels, version: 2 });
    // The other server reads with version 2 from its next call: its channels stream is there.
    const destination = await otherCall('post', '/destinations', '/destinations', {
      body: { name: 'another file', workspaceId, configuration: { destinationType: 'sqlite', destination_path: '/local/declarative-2.sqlite' } },
      extension: true,
    });
    const connection = await otherCall('post', '/connections', '/connections', {
      body: { sourceId: source.body.sourceId, destinationId: destination.body.destinationId, configurations: { streams: [{ name: 'channels' }] } },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(200);
    expect(connection.body.configurations.streams.map((stream: { name: string }) => stream.name)).toEqual(['channels']);
    const job = await otherCall('post', '/jobs', '/jobs', { body: { connectionId: connection.body.connectionId, jobType: 'sync' } });
    expect((await settled(job.body.jobId, otherCall)).status).toBe('succeeded');

    // An update in YAML too; one that is no longer valid, or takes another definition's type, is refused and the version stays.
    const again = await sendYaml('put', DEFINITION, path, { manifest: exampleYaml('team-users') });
    expect([again.status, again.body.version, again.body.manifest], JSON.stringify(again.body)).toEqual([200, 3, parse(exampleYaml('team-users'))]);
    const broken = await call('put', DEFINITION, path, { body: { manifest: { ...withChannels, actions: [] } } });
    expect([broken.status, issuesOf(broken)]).toEqual([400, ['body.manifest.actions']]);
    const taken = await call('put', DEFINITION, path, { body: { manifest: { ...withChannels, type: 'team-members' } } });
    expect(taken.status).toBe(409);
    expect((await otherCall('get', DEFINITION, path)).body.version).toBe(3);
  });

  it('deletes a definition with its sources and their connections, answering it as it was', async () => {
    const source = await createSource({ credentials: { token: CHAT_TOKEN } }, { definitionId });
    const destination = await call('post', '/destinations', '/destinations', {
      body: { name: 'to go', workspaceId, configuration: { destinationType: 'sqlite', destination_path: '/local/declarative-3.sqlite' } },
      extension: true,
    });
    const connection = await call('post', '/connections', '/connections', {
      body: { sourceId: source.body.sourceId, destinationId: destination.body.destinationId },
    });
    const path = `${definitions()}/${definitionId}`;
    const deleted = await call('delete', DEFINITION, path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: definitionId, name: 'Team users', version: 3 });
    expect((await call('get', DEFINITION, path)).status).toBe(404);
    expect((await call('get', '/sources/{sourceId}', `/sources/${source.body.sourceId}`)).status).toBe(404);
    expect((await call('get', '/connections/{connectionId}', `/connections/${connection.body.connectionId}`)).status).toBe(404);
    expect((await call('get', DEFINITIONS, definitions())).body.data.map((definition: { name: string }) => definition.name)).toEqual(['Team members (YAML)']);
    // Its id names no type any more.
    const orphan = await createSource({ credentials: { token: CHAT_TOKEN } }, { definitionId });
    expect([orphan.status, issuesOf(orphan)]).toEqual([400, ['body.definitionId']]);
  });

  it('serves the same routes under /api/public/v1', async () => {
    const prefix = 'api/public/v1';
    const made = await call('post', DEFINITIONS, definitions(), { prefix, body: { workspaceId, name: 'scratch', manifest: manifest('scratch') } });
    expect([made.status, made.body.version]).toEqual([200, 1]);
    const path = `${definitions()}/${made.body.id}`;
    expect((await call('get', DEFINITIONS, definitions(), { prefix })).body.data.map((definition: { id: string }) => definition.id)).toContain(made.body.id);
    expect((await call('put', DEFINITION, path, { prefix, body: { manifest: manifest('scratch') } })).body.version).toBe(2);
    expect((await call('delete', DEFINITION, path, { prefix })).body).toMatchObject({ id: made.body.id, version: 2 });
    expect((await call('get', DEFINITION, path, { prefix })).status).toBe(404);
  });

  it('answers as its own /openapi.json declares, every declarative definition operation with a 2xx at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance.operationKeys({ tagged: 'public API' }).filter((key) => key.includes('/declarative_sources'));
    expect(own).toHaveLength(10);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
