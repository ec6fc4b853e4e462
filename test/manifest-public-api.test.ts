import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RestUpstream } from '../testing/index.ts';
import { BACKENDS, bearer, type HostedFixture, startHostedFixture } from './helpers/hosted-fixture.ts';
import { expectNowhereInClear, publicAccessToken } from './helpers/public-api-calls.ts';

/**
 * Airbyte declarative manifests through the public cloud API: published as an object or as YAML text
 * beside Plugboard's own format, refused with every problem at its place when the interpreter cannot
 * run them, then sources of them (their spec's configuration, secrets masked, checked against the
 * local REST upstream), the streams a connection offers, and the builder project's testing values.
 */

const MANIFEST_TEXT = readFileSync(new URL('./fixtures/manifests/source-tracker/manifest.yaml', import.meta.url), 'utf8');
const UNSUPPORTED_TEXT = readFileSync(new URL('./fixtures/manifests/unsupported.yaml', import.meta.url), 'utf8');
const KEY = 'tracker-key-public-9d1e';
const MASK = '**********';

interface Answer {
  status: number;
  // A JSON answer, asserted on by the tests.
  body: any;
}

describe.each(BACKENDS)('Airbyte manifests through the public API on %s', (backend) => {
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let token: string;
  let workspaceId: string;
  let definitionId: string;
  let sourceId: string;
  let config: Record<string, unknown>;

  /** Any call, whatever its status: the answer's status and JSON body. */
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, json?: unknown): Promise<Answer> => {
    const response = await fx.http(path, { method, headers: bearer(token), ...(json === undefined ? {} : { json }) });
    return { status: response.statusCode, body: response.body.length > 0 ? JSON.parse(response.body) : undefined };
  };
  const definitions = () => `v1/workspaces/${workspaceId}/definitions/declarative_sources`;
  const publish = (name: string, manifest: unknown) => api('POST', definitions(), { name, manifest });
  const createSource = (configuration: Record<string, unknown>, id = definitionId) =>
    api('POST', 'v1/sources', { name: 'tracker', workspaceId, definitionId: id, configuration });
  const locs = (answer: Answer) => (answer.body.issues as Array<{ loc: Array<string | number> }>).map((issue) => issue.loc.join('.'));

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 230, projects: 3, tasksPerProject: 7, auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY } });
    fx = await startHostedFixture(backend);
    token = await publicAccessToken(fx);
    workspaceId = (await api('POST', 'v1/workspaces', { name: 'manifests-ws' })).body.workspaceId;
    config = { base_url: upstream.url, api_key: KEY, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T02:00:00Z' };
  });
  afterAll(async () => {
    await fx?.close();
    await upstream?.close();
  });

  it('publishes an Airbyte manifest given as an object, answered as it was given', async () => {
    const manifest = parse(MANIFEST_TEXT);
    const made = await publish('Tracker', manifest);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toEqual({ id: expect.any(String), name: 'Tracker', manifest, version: 1 });
    definitionId = made.body.id;
    expect((await api('GET', `${definitions()}/${definitionId}`)).body).toEqual(made.body);
  });

  it('publishes one given as YAML text, and two Airbyte manifests live side by side in a workspace', async () => {
    const made = await publish('Tracker (YAML)', MANIFEST_TEXT);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.manifest).toEqual(parse(MANIFEST_TEXT));
    const listed = await api('GET', definitions());
    expect(listed.body.data.map((definition: { name: string }) => definition.name)).toEqual(['Tracker', 'Tracker (YAML)']);
  });

  it('refuses a manifest the interpreter cannot run, naming each component at its place', async () => {
    const refused = await publish('unsupported', UNSUPPORTED_TEXT);
    expect([refused.status, refused.body.title]).toEqual([400, 'Bad Request']);
    const issues = refused.body.issues as Array<{ loc: Array<string | number>; msg: string; type: string }>;
    const python = issues.find((issue) => issue.msg.includes('CustomPaginationStrategy'));
    expect(python?.loc).toEqual(['body', 'manifest', 'streams', 0, 'retriever', 'paginator', 'pagination_strategy']);
    expect(python?.type).toBe('value_error.manifest.custom_component');
    expect(issues.some((issue) => issue.msg.includes('AsyncRetriever') && issue.loc.join('.') === 'body.manifest.streams.1.retriever')).toBe(true);
    expect(refused.body.detail).toMatch(/CustomAuthenticator|SignedAuthenticator/);
    // Nothing is stored.
    expect((await api('GET', definitions())).body.data).toHaveLength(2);
  });

  it('refuses other broken Airbyte manifests with a 400 in the documented shape, never a 500', async () => {
    const manifest = parse(MANIFEST_TEXT);
    const cases: Array<[string, unknown, string]> = [
      ['no version', { ...manifest, version: undefined }, 'body.manifest.version'],
      ['a version from the future', { ...manifest, version: '99.0.0' }, 'body.manifest.version'],
      ['a reference to nothing', { ...manifest, streams: [{ $ref: '#/definitions/nothing' }] }, 'body.manifest.streams.0'],
      ['a check of no stream', { ...manifest, check: { type: 'CheckStream', stream_names: ['ghosts'] } }, 'body.manifest.check'],
      ['streams that are no list', { ...manifest, streams: 'items' }, 'body.manifest.streams'],
    ];
    for (const [what, given, loc] of cases) {
      const answer = await publish(what, given);
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.title, what).toBe('Bad Request');
      expect(
        locs(answer).some((at) => at.startsWith(loc)),
        `${what}: ${JSON.stringify(answer.body.issues)}`,
      ).toBe(true);
    }
  });

  it('updates a definition to a new Airbyte manifest (PUT), one version up; a broken one is refused and the version stays', async () => {
    const manifest = parse(MANIFEST_TEXT);
    const path = `${definitions()}/${definitionId}`;
    const fewer = { ...manifest, streams: manifest.streams.slice(0, 2) };
    const updated = await api('PUT', path, { manifest: fewer });
    expect([updated.status, updated.body.version], JSON.stringify(updated.body)).toEqual([200, 2]);
    const broken = await api('PUT', path, { manifest: UNSUPPORTED_TEXT });
    expect(broken.status).toBe(400);
    const back = await api('PUT', path, { manifest: MANIFEST_TEXT });
    expect([back.status, back.body.version]).toEqual([200, 3]);
  });

  it("creates a source of it with the spec's configuration, checked against the upstream, its secret masked", async () => {
    const made = await createSource(config);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    sourceId = made.body.sourceId;
    const sourceType = `declarative-${definitionId}`;
    expect(made.body).toMatchObject({ sourceType, definitionId, workspaceId, configuration: { ...config, api_key: MASK, sourceType } });
    // The check read the check stream's first page with the key.
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/api/items', query: { limit: '50' } });
    expect((await api('GET', `v1/sources/${sourceId}`)).body.configuration.api_key).toBe(MASK);
    const listed = await api('GET', `v1/sources?workspaceIds=${workspaceId}`);
    expect(listed.body.data[0].configuration.api_key).toBe(MASK);
    const checked = await api('POST', 'api/v1/sources/check_connection', { sourceId });
    expect(checked.body.status, JSON.stringify(checked.body)).toBe('succeeded');
    await expectNowhereInClear(fx, [KEY]);
  });

  it('refuses a key the upstream refuses (400 credentials_rejected), and a configuration its spec refuses, per field', async () => {
    const refused = await createSource({ ...config, api_key: 'wrong-key-6161' });
    expect([refused.status, refused.body.type]).toEqual([400, 'urn:plugboard:error:credentials_rejected']);
    expect(JSON.stringify(refused.body)).not.toContain('wrong-key-6161');
    const invalid = await createSource({ base_url: upstream.url, api_key: 12345, start_date: 'not a date' });
    expect(invalid.status).toBe(400);
    expect(locs(invalid)).toEqual(expect.arrayContaining(['body.configuration.api_key', 'body.configuration.start_date']));
    expect(JSON.stringify(invalid.body)).not.toContain('12345');
    const missing = await createSource({ base_url: upstream.url, start_date: '2024-01-01T00:00:00Z' });
    expect([missing.status, locs(missing)]).toEqual([400, ['body.configuration.api_key']]);
    const notAUrl = await createSource({ ...config, base_url: 'not a url' });
    expect([notAUrl.status, notAUrl.body.type]).toEqual([400, 'urn:plugboard:error:manifest_invalid_url']);
    const unknownDefinition = await createSource(config, '00000000-0000-4000-8000-000000000000');
    expect([unknownDefinition.status, locs(unknownDefinition)]).toEqual([400, ['body.definitionId']]);
  });

  it('sends no request where the egress policy refuses: a base URL of the metadata service is a 400 before any secret leaves', async () => {
    const refused = await createSource({ ...config, base_url: 'http://169.254.169.254' });
    expect([refused.status, refused.body.type], JSON.stringify(refused.body)).toEqual([400, 'urn:plugboard:error:egress_refused']);
  });

  it('keeps the secret from another base URL until it is given again (secret_required)', async () => {
    const moved = await api('PATCH', `v1/sources/${sourceId}`, { configuration: { base_url: `${upstream.url}/elsewhere` } });
    expect([moved.status, moved.body.type], JSON.stringify(moved.body)).toEqual([400, 'urn:plugboard:error:secret_required']);
    expect(locs(moved)).toEqual(['body.configuration.api_key']);
    // A field that moves nothing changes without the secret.
    const later = await api('PATCH', `v1/sources/${sourceId}`, { configuration: { end_date: '2024-01-01T02:30:00Z' } });
    expect([later.status, later.body.configuration.end_date, later.body.configuration.api_key]).toEqual([200, '2024-01-01T02:30:00Z', MASK]);
    const back = await api('PATCH', `v1/sources/${sourceId}`, { configuration: { end_date: '2024-01-01T02:00:00Z' } });
    expect(back.status).toBe(200);
  });

  it("offers the manifest's streams to a connection, each with its sync modes, primary key and cursor", async () => {
    const destination = await api('POST', 'v1/destinations', {
      name: 'file',
      workspaceId,
      configuration: { destinationType: 'sqlite', destination_path: '/local/manifest-api.sqlite' },
    });
    const connection = await api('POST', 'v1/connections', { sourceId, destinationId: destination.body.destinationId });
    expect(connection.status, JSON.stringify(connection.body)).toBe(200);
    expect(connection.body.configurations.streams).toEqual([
      { name: 'items', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] },
      { name: 'Projects', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] },
      { name: 'tasks', syncMode: 'full_refresh_overwrite', cursorField: [], primaryKey: [['id']] },
      { name: 'items_updated', syncMode: 'incremental_deduped_history', cursorField: ['updated_at'], primaryKey: [['id']] },
    ]);
    const catalog = await api('POST', 'api/v1/web_backend/connections/get', { connectionId: connection.body.connectionId });
    const entry = catalog.body.syncCatalog.streams.find((stream: { stream: { name: string } }) => stream.stream.name === 'items_updated');
    expect(entry.stream).toMatchObject({
      supportedSyncModes: ['full_refresh', 'incremental'],
      defaultCursorField: ['updated_at'],
      sourceDefinedPrimaryKey: [['id']],
    });
    expect(Object.keys(entry.stream.jsonSchema.properties)).toEqual(['id', 'name', 'updated_at', 'project_id', 'tags', 'metrics']);
    const wrong = await api('POST', 'v1/connections', {
      sourceId,
      destinationId: destination.body.destinationId,
      configurations: { streams: [{ name: 'tasks', syncMode: 'incremental_append' }, { name: 'nope' }] },
    });
    expect([wrong.status, locs(wrong)]).toEqual([400, ['body.configurations.streams.0.syncMode']]);
  });

  it("keeps a definition's testing values in its builder project, encrypted, answered with secrets masked", async () => {
    const project = await api('POST', 'api/v1/connector_builder_projects/get_for_definition_id', { actorDefinitionId: definitionId, workspaceId });
    expect(project).toEqual({ status: 200, body: { builderProjectId: definitionId, workspaceId } });
    const secret = 'testing-key-never-clear-5e2b';
    const values = { ...config, api_key: secret };
    const spec = { connectionSpecification: parse(MANIFEST_TEXT).spec.connection_specification };
    const stored = await api('POST', 'api/v1/connector_builder_projects/update_testing_values', {
      workspaceId,
      builderProjectId: definitionId,
      spec,
      testingValues: values,
    });
    expect(stored).toEqual({ status: 200, body: { ...config, api_key: MASK } });
    // The definition's own spec marks its secrets even when the given one does not.
    const bare = await api('POST', 'api/v1/connector_builder_projects/update_testing_values', {
      workspaceId,
      builderProjectId: definitionId,
      spec: {},
      testingValues: values,
    });
    expect(bare.body.api_key).toBe(MASK);
    const rows = await fx.server.hosted.cloudDb.all('SELECT * FROM cloud_builder_testing_values');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    await expectNowhereInClear(fx, [secret]);

    const unknown = await api('POST', 'api/v1/connector_builder_projects/get_for_definition_id', {
      actorDefinitionId: '00000000-0000-4000-8000-000000000000',
      workspaceId,
    });
    expect([unknown.status, unknown.body.message]).toEqual([404, expect.stringMatching(/not found/)]);
    const notAnObject = await api('POST', 'api/v1/connector_builder_projects/update_testing_values', {
      workspaceId,
      builderProjectId: definitionId,
      spec,
      testingValues: 'api_key=1',
    });
    expect(notAnObject.status).toBe(422);
    expect(JSON.stringify(notAnObject.body)).toMatch(/testingValues/);
  });
});
