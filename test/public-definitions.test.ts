import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameBasedUuid } from '../core/hosted/cloud-api/definition-ids.ts';
import { BACKENDS, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance } from './helpers/hosted-openapi.ts';
import { declarativeManifest, publishDeclarative } from './helpers/oauth-consent.ts';
import { officialSlackConfiguration, otherOrganizationToken, type publicApiCalls, rawPublicCalls, startPublicApiSuite } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * Source and destination definitions through the public cloud API, against Airbyte's official
 * description: the types this server runs (every loaded connector, Airbyte's names for what they
 * read, the destinations) and a workspace's declarative definitions, by stable ids and never changed
 * here; custom definitions naming a Docker image, kept and listed, of which no source or destination
 * can be made.
 */

const spec = PublicApiSpec.load();
const SOURCES = '/workspaces/{workspaceId}/definitions/sources';
const DESTINATIONS = '/workspaces/{workspaceId}/definitions/destinations';
const SLACK_ID = 'c2281cee-86f9-4a86-bb48-d23286b4c7bd';

describe.each(BACKENDS)('public cloud API definitions on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let call: ReturnType<typeof publicApiCalls>;
  let workspaceId: string;
  let otherWorkspaceId: string;
  const answers: Answer[] = [];

  const sources = (workspace = workspaceId) => `/workspaces/${workspace}/definitions/sources`;
  const destinations = (workspace = workspaceId) => `/workspaces/${workspace}/definitions/destinations`;
  const container = (path: string, specPath: string, name = 'thing') =>
    call('post', specPath, path, { body: { name, dockerRepository: `example/${name}`, dockerImageTag: '1.0.0' } });
  const raw = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown) => rawPublicCalls(fx, () => token)(method, path, json);

  beforeAll(async () => {
    ({ fx, token, call } = await startPublicApiSuite(backend, spec, { operations: ['post /sources', 'post /destinations'], answers }));
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'definitions-ws' } })).body.workspaceId;
    otherWorkspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'definitions-other-ws' } })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('lists the types this server runs by stable ids: every loaded connector, Airbyte names, the destinations', async () => {
    const listed = await call('get', SOURCES, sources());
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.data.map((definition: { id: string }) => [definition.id, definition]));
    expect(byId.get(SLACK_ID)).toEqual({ id: SLACK_ID, name: 'slack', dockerRepository: 'plugboard/source-slack', dockerImageTag: expect.any(String) });
    expect(byId.get('9f8dda77-1048-4368-815b-269bf54ee9b8')).toMatchObject({ name: 'google-drive' });
    // Each connector type loaded, a plugin's as any: the same id on every server.
    for (const type of fx.server.hosted.runtime.connectorTypes()) {
      expect(byId.get(nameBasedUuid(`source/${type}`)), type).toMatchObject({ name: type, dockerRepository: `plugboard/source-${type}` });
    }
    const version = fx.server.hosted.runtime.plugin('chat').definition.version;
    expect(byId.get(nameBasedUuid('source/chat'))).toMatchObject({ dockerImageTag: version ?? 'latest' });
    expect((await call('get', `${SOURCES}/{definitionId}`, `${sources()}/${SLACK_ID}`)).body).toEqual(byId.get(SLACK_ID));

    const destinationList = await call('get', DESTINATIONS, destinations());
    expect(destinationList.body.data).toEqual([
      { id: 'b76be0a6-27dc-4560-95f6-2623da0bd7b6', name: 'sqlite', dockerRepository: 'plugboard/destination-sqlite', dockerImageTag: 'latest' },
      { id: '25c5221d-dce2-4163-ade9-739ef790f503', name: 'postgres', dockerRepository: 'plugboard/destination-postgres', dockerImageTag: 'latest' },
      { id: '94bd199c-2ff0-4aa2-b98e-17f0acb72610', name: 'duckdb', dockerRepository: 'plugboard/destination-duckdb', dockerImageTag: 'latest' },
    ]);
    // A source's definitionId is one of them.
    const source = await call('post', '/sources', '/sources', { body: { name: 'slack', workspaceId, configuration: officialSlackConfiguration() } });
    expect(byId.has(source.body.definitionId)).toBe(true);
  });

  it("lists the workspace's declarative definitions, tagged with their version, changed through their own routes only", async () => {
    const declarativeId = await publishDeclarative(call, workspaceId, 'Team members', declarativeManifest(fx, 'definitions-members'));
    const definition = { id: declarativeId, name: 'Team members', dockerRepository: `plugboard/source-declarative-${declarativeId}`, dockerImageTag: '1' };
    expect((await call('get', SOURCES, sources())).body.data).toContainEqual(definition);
    expect((await call('get', `${SOURCES}/{definitionId}`, `${sources()}/${declarativeId}`)).body).toEqual(definition);
    // Another workspace has none of it.
    expect((await call('get', SOURCES, sources(otherWorkspaceId))).body.data.map((d: { id: string }) => d.id)).not.toContain(declarativeId);
    expect((await call('get', `${SOURCES}/{definitionId}`, `${sources(otherWorkspaceId)}/${declarativeId}`)).status).toBe(404);
    for (const [method, body] of [
      ['PUT', { name: 'renamed', dockerImageTag: '2' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await raw(method, `${sources()}/${declarativeId}`, body);
      expect([refused.status, refused.body.type], method).toEqual([400, 'urn:plugboard:error:definition_read_only']);
      expect(refused.body.detail).toContain(`/definitions/declarative_sources/${declarativeId}`);
    }
  });

  it('never changes a type this server runs', async () => {
    for (const [path, id] of [
      [sources(), SLACK_ID],
      [sources(), nameBasedUuid('source/chat')],
      [destinations(), '94bd199c-2ff0-4aa2-b98e-17f0acb72610'],
    ] as const) {
      const put = await raw('PUT', `${path}/${id}`, { name: 'mine now', dockerImageTag: '9' });
      expect([put.status, put.contentType, put.body.type], id).toEqual([400, 'application/problem+json', 'urn:plugboard:error:definition_read_only']);
      expect((await raw('DELETE', `${path}/${id}`)).status, id).toBe(400);
    }
  });

  it('keeps custom definitions naming a Docker image: created, listed, read, updated, deleted (answered as it was)', async () => {
    for (const [path, specPath] of [
      [sources(), SOURCES],
      [destinations(), DESTINATIONS],
    ] as const) {
      const made = await call('post', specPath, path, {
        body: { name: 'custom', dockerRepository: 'example/custom', dockerImageTag: '0.1.0', documentationUrl: 'https://example.com/docs' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toEqual({
        id: expect.any(String),
        name: 'custom',
        dockerRepository: 'example/custom',
        dockerImageTag: '0.1.0',
        documentationUrl: 'https://example.com/docs',
      });
      expect((await call('get', specPath, path)).body.data).toContainEqual(made.body);
      expect((await call('get', `${specPath}/{definitionId}`, `${path}/${made.body.id}`)).body).toEqual(made.body);
      const updated = await call('put', `${specPath}/{definitionId}`, `${path}/${made.body.id}`, {
        body: { name: 'custom, renamed', dockerImageTag: '0.2.0' },
      });
      expect(updated.body).toEqual({ ...made.body, name: 'custom, renamed', dockerImageTag: '0.2.0' });
      // Another workspace's, or another kind's, is not found there.
      expect((await call('get', `${specPath}/{definitionId}`, `${path.replace(workspaceId, otherWorkspaceId)}/${made.body.id}`)).status).toBe(404);
      const otherKind = path === sources() ? destinations() : sources();
      expect((await raw('GET', `${otherKind}/${made.body.id}`)).status).toBe(404);
      const deleted = await call('delete', `${specPath}/{definitionId}`, `${path}/${made.body.id}`);
      expect([deleted.status, deleted.body]).toEqual([200, updated.body]);
      expect((await call('get', `${specPath}/{definitionId}`, `${path}/${made.body.id}`)).status).toBe(404);
      expect((await call('delete', `${specPath}/{definitionId}`, `${path}/${made.body.id}`)).status).toBe(404);
    }
  });

  it('refuses a source or destination of a custom definition with a clear 400: nothing here runs a container', async () => {
    const sourceDefinition = (await container(sources(), SOURCES, 'source-thing')).body.id as string;
    const destinationDefinition = (await container(destinations(), DESTINATIONS, 'destination-thing')).body.id as string;
    const source = await raw('POST', '/sources', { name: 'x', workspaceId, definitionId: sourceDefinition, configuration: { api_key: 'k' } });
    expect([source.status, source.contentType, source.body.type]).toEqual([400, 'application/problem+json', 'urn:plugboard:error:container_definition']);
    expect(source.body.detail).toMatch(/names a Docker image, and Plugboard runs no containers/);
    const destination = await raw('POST', '/destinations', { name: 'x', workspaceId, definitionId: destinationDefinition, configuration: { host: 'h' } });
    expect([destination.status, destination.body.type]).toEqual([400, 'urn:plugboard:error:container_definition']);
    // From another workspace the definition is unknown, as any id no type has.
    const elsewhere = await raw('POST', '/sources', { name: 'x', workspaceId: otherWorkspaceId, definitionId: sourceDefinition, configuration: {} });
    expect([elsewhere.status, elsewhere.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.definitionId']);
  });

  it('answers bad input, unknown workspaces and other organizations with problem details, never a 500', async () => {
    for (const [body, loc] of [
      [{ dockerRepository: 'a', dockerImageTag: '1' }, 'body.name'],
      [{ name: 'a', dockerImageTag: '1' }, 'body.dockerRepository'],
      [{ name: 'a', dockerRepository: 'a' }, 'body.dockerImageTag'],
      [{ name: 'a', dockerRepository: 'a', dockerImageTag: '1', documentationUrl: 'not a url' }, 'body.documentationUrl'],
      [{ name: 'a', dockerRepository: 'a', dockerImageTag: '1', extra: true }, 'body.extra'],
    ] as const) {
      const answer = await raw('POST', sources(), body);
      expect([answer.status, answer.contentType, answer.body.issues?.[0]?.loc.join('.')], JSON.stringify(body)).toEqual([400, 'application/problem+json', loc]);
    }
    const made = (await container(destinations(), DESTINATIONS)).body.id as string;
    expect((await raw('PUT', `${destinations()}/${made}`, { name: 'only a name' })).status).toBe(400);
    expect((await raw('GET', sources(randomUUID()))).status).toBe(404);
    expect((await raw('GET', sources('not-a-uuid'))).status).toBe(404);
    expect((await raw('GET', `${sources()}/${randomUUID()}`)).status).toBe(404);
    expect((await raw('GET', `${sources()}/not-a-uuid`)).status).toBe(404);
    const otherToken = await otherOrganizationToken(fx);
    expect((await call('get', DESTINATIONS, destinations(), { token: otherToken })).status).toBe(404);
    expect((await call('get', `${DESTINATIONS}/{definitionId}`, `${destinations()}/${made}`, { token: otherToken })).status).toBe(404);
    expect((await call('delete', `${DESTINATIONS}/{definitionId}`, `${destinations()}/${made}`, { token: otherToken })).status).toBe(404);
  });

  it('goes with its workspace', async () => {
    const doomed = (await call('post', '/workspaces', '/workspaces', { body: { name: 'doomed definitions' } })).body.workspaceId as string;
    const made = (await container(sources(doomed), SOURCES)).body.id as string;
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${doomed}`)).status).toBe(204);
    const row = await fx.server.hosted.cloudDb.get('SELECT id FROM cloud_container_definitions WHERE id = ?', [made]);
    expect(row).toBeUndefined();
  });

  it('answers as its own /openapi.json declares, every definition operation with a 2xx at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance
      .operationKeys({ tagged: 'public API' })
      .filter((key) => / \/v1\/workspaces\/\{workspace_id\}\/definitions\/(sources|destinations)/.test(key));
    expect(own.length).toBe(10);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
