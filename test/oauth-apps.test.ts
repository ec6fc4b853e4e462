import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { declarativeManifest, publishDeclarative } from './helpers/oauth-consent.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { type CallAnswer, compileOperations, expectNowhereInClear, publicAccessToken, publicApiCalls } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * OAuth apps (Airbyte's OAuth credential overrides) through the public cloud API, every request and
 * answer checked against the official description: per organization and per workspace, the
 * workspace's winning and the exact name before its family (slack and chat), deleted in turn, their
 * client secrets sealed and never answered; names without an OAuth flow refused.
 */

const spec = PublicApiSpec.load();
const WORKSPACE_APPS = '/workspaces/{workspaceId}/oauthCredentials';
const ORGANIZATION_APPS = '/organizations/{organizationId}/oauthCredentials';
const OPERATIONS = [`put ${WORKSPACE_APPS}`, `put ${ORGANIZATION_APPS}`, 'post /sources/initiateOAuth'];
/**
 * The official description lists the source names it takes OAuth for (OAuthActorNames): Plugboard's
 * own (chat, file-storage, declarative-<id>) are outside it, as its own configuration shapes are.
 */
const OWN_NAMES = /^\/(name|sourceType) must be equal to one of the allowed values$/;
/** Every client secret registered here: none may show anywhere. */
const SECRETS: string[] = [];
const secretOf = (clientId: string) => {
  const secret = `${clientId}-secret-${randomUUID()}`;
  SECRETS.push(secret);
  return secret;
};

describe.each(BACKENDS)('OAuth apps on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let organizationId: string;
  let workspaceA: string;
  let workspaceB: string;
  const answers: Answer[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  type Owner = 'workspaces' | 'organizations';
  const appsPath = (owner: Owner) => (owner === 'workspaces' ? WORKSPACE_APPS : ORGANIZATION_APPS);
  /**
   * The official OAuthCredentialsConfiguration is a oneOf of some forty sources' shapes, each taking
   * `{credentials: {client_id, client_secret}}`: no body matches exactly one, so the configuration is
   * left out of the official check (`extension`) and checked by the server's own schema.
   */
  const register = (owner: Owner, id: string, name: string, clientId: string, options: { prefix?: string; token?: string } = {}) =>
    call('put', appsPath(owner), `/${owner}/${id}/oauthCredentials`, {
      body: { actorType: 'source', name, configuration: { credentials: { client_id: clientId, client_secret: secretOf(clientId) } } },
      extension: true,
      ignore: OWN_NAMES,
      ...options,
    });
  const remove = (owner: Owner, id: string, name: string, options: { prefix?: string; token?: string; actorType?: string } = {}) =>
    call('delete', `${appsPath(owner)}/{actorType}/{name}`, `/${owner}/${id}/oauthCredentials/${options.actorType ?? 'source'}/${name}`, options);
  /** The client id a consent for the type would use in the workspace, or the error's type. */
  const clientOf = async (workspaceId: string, sourceType: string): Promise<string | null> => {
    const answer = await call('post', '/sources/initiateOAuth', '/sources/initiateOAuth', {
      body: { redirectUrl: 'https://app.example/connected', workspaceId, sourceType },
      ignore: OWN_NAMES,
    });
    return answer.status === 200 ? new URL(answer.body.consentUrl).searchParams.get('client_id') : answer.body.type;
  };
  const issuesOf = (answer: CallAnswer) => [...new Set((answer.body.issues as Array<{ loc: Array<string | number> }>).map((issue) => issue.loc.join('.')))];
  const otherOrganizationToken = async () => {
    const other = await fx.server.hosted.applications.create(`another organization ${randomUUID()}`);
    return publicAccessToken(fx, { client_id: other.client_id, client_secret: other.client_secret });
  };
  const publish = (type: string, oauth2: boolean) =>
    publishDeclarative(call, workspaceA, type, declarativeManifest(fx, type, oauth2 ? fx.chatSandbox.tokenUrl : undefined));

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    organizationId = (await call('get', '/organizations', '/organizations')).body.data[0].organizationId;
    workspaceA = (await call('post', '/workspaces', '/workspaces', { body: { name: 'oauth-apps-a' } })).body.workspaceId;
    workspaceB = (await call('post', '/workspaces', '/workspaces', { body: { name: 'oauth-apps-b' } })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("registers apps per organization and workspace: the workspace's wins, at each level the exact name before its family", async () => {
    expect(await clientOf(workspaceA, 'slack')).toBe('urn:plugboard:error:oauth_app_not_registered');
    const put = await register('organizations', organizationId, 'slack', 'org-slack');
    // The official answer: a 200 without a body.
    expect([put.status, put.body]).toEqual([200, undefined]);
    expect(await clientOf(workspaceA, 'slack')).toBe('org-slack');
    // slack and chat are one connector: an app of one serves the other.
    expect(await clientOf(workspaceA, 'chat')).toBe('org-slack');
    expect((await register('workspaces', workspaceA, 'chat', 'a-chat')).status).toBe(200);
    expect(await clientOf(workspaceA, 'slack')).toBe('a-chat');
    expect(await clientOf(workspaceB, 'slack')).toBe('org-slack');
    expect((await register('workspaces', workspaceA, 'slack', 'a-slack')).status).toBe(200);
    expect([await clientOf(workspaceA, 'slack'), await clientOf(workspaceA, 'chat')]).toEqual(['a-slack', 'a-chat']);
    // A second registration under the same name replaces the first.
    expect((await register('workspaces', workspaceA, 'slack', 'a-slack-2', { prefix: 'api/public/v1' })).status).toBe(200);
    expect(await clientOf(workspaceA, 'slack')).toBe('a-slack-2');
    // Another family has none yet.
    expect(await clientOf(workspaceA, 'google-drive')).toBe('urn:plugboard:error:oauth_app_not_registered');
    expect((await register('organizations', organizationId, 'file-storage', 'org-files', { prefix: 'api/public/v1' })).status).toBe(200);
    expect(await clientOf(workspaceB, 'google-drive')).toBe('org-files');
  });

  it("lists the apps, a workspace's own then its organization's, with client ids and never a secret", async () => {
    const list = async (path: string, prefix = 'v1') => {
      const response = await fx.http.get(`${prefix}${path}`, { headers: bearer(token) });
      expect(response.statusCode, path).toBe(200);
      for (const secret of SECRETS) expect(response.body.includes(secret), secret).toBe(false);
      expect(response.body).not.toMatch(/secret/i);
      return JSON.parse(response.body).data as Array<Record<string, string>>;
    };
    const brief = (apps: Array<Record<string, string>>) => apps.map((app) => [app.owner, app.name, app.clientId]);
    const mine = await list(`/workspaces/${workspaceA}/oauthCredentials`);
    expect(brief(mine)).toEqual([
      ['workspace', 'chat', 'a-chat'],
      ['workspace', 'slack', 'a-slack-2'],
      ['organization', 'file-storage', 'org-files'],
      ['organization', 'slack', 'org-slack'],
    ]);
    expect(mine[0]).toEqual({ owner: 'workspace', ownerId: workspaceA, actorType: 'source', name: 'chat', clientId: 'a-chat', updatedAt: expect.any(String) });
    expect(brief(await list(`/workspaces/${workspaceB}/oauthCredentials`, 'api/public/v1'))).toEqual([
      ['organization', 'file-storage', 'org-files'],
      ['organization', 'slack', 'org-slack'],
    ]);
    expect((await list(`/organizations/${organizationId}/oauthCredentials`)).map((app) => [app.owner, app.ownerId, app.name])).toEqual([
      ['organization', organizationId, 'file-storage'],
      ['organization', organizationId, 'slack'],
    ]);
    expect(brief(await list(`/organizations/${organizationId}/oauthCredentials`, 'api/public/v1'))).toHaveLength(2);
    // Another organization's token reads none of them.
    const other = await otherOrganizationToken();
    expect((await fx.http.get(`v1/workspaces/${workspaceA}/oauthCredentials`, { headers: bearer(other) })).statusCode).toBe(404);
    expect((await fx.http.get(`v1/organizations/${organizationId}/oauthCredentials`, { headers: bearer(other) })).statusCode).toBe(403);
  });

  it('deletes an app: the next in line serves, a second delete is a 404', async () => {
    expect((await remove('workspaces', workspaceA, 'slack')).status).toBe(204);
    expect(await clientOf(workspaceA, 'slack')).toBe('a-chat');
    expect((await remove('workspaces', workspaceA, 'chat', { prefix: 'api/public/v1' })).status).toBe(204);
    expect(await clientOf(workspaceA, 'slack')).toBe('org-slack');
    const again = await remove('workspaces', workspaceA, 'chat');
    expect([again.status, again.body.type]).toEqual([404, 'urn:plugboard:error:oauth_credentials_not_found']);
    // Destinations have no OAuth apps; an actor type that is neither is invalid.
    expect((await remove('organizations', organizationId, 'slack', { actorType: 'destination' })).status).toBe(404);
    expect((await remove('organizations', organizationId, 'slack', { actorType: 'connection' })).status).toBe(400);
    expect((await remove('organizations', organizationId, 'slack')).status).toBe(204);
    expect((await remove('organizations', organizationId, 'file-storage', { prefix: 'api/public/v1' })).status).toBe(204);
    expect(await clientOf(workspaceA, 'slack')).toBe('urn:plugboard:error:oauth_app_not_registered');
  });

  it('takes a declarative definition that declares an OAuth flow, by its source type or its manifest type, in its own workspace only', async () => {
    const withFlow = await publish('oauth-members', true);
    const without = await publish('token-members', false);
    expect((await register('workspaces', workspaceA, `declarative-${withFlow}`, 'members-app')).status).toBe(200);
    expect(await clientOf(workspaceA, 'oauth-members')).toBe('members-app');
    expect((await register('workspaces', workspaceA, 'oauth-members', 'members-app-2')).status).toBe(200);
    expect(await clientOf(workspaceA, `declarative-${withFlow}`)).toBe('members-app-2');
    // The organization reaches it by id; another workspace not at all.
    expect((await register('organizations', organizationId, `declarative-${withFlow}`, 'members-org')).status).toBe(200);
    const elsewhere = await register('workspaces', workspaceB, `declarative-${withFlow}`, 'members-b');
    expect([elsewhere.status, issuesOf(elsewhere)]).toEqual([400, ['body.name']]);
    const noFlow = await register('workspaces', workspaceA, `declarative-${without}`, 'token-app');
    expect([noFlow.status, noFlow.body.issues[0].type]).toEqual([400, 'value_error.oauth_not_supported']);
    expect((await remove('workspaces', workspaceA, 'oauth-members')).status).toBe(204);
    expect((await remove('organizations', organizationId, `declarative-${withFlow}`)).status).toBe(204);
  });

  it('refuses names without an OAuth flow and malformed bodies with problem details naming the field', async () => {
    const raw = (path: string, body: unknown, method: 'PUT' | 'DELETE' = 'PUT') =>
      fx.http(`v1${path}`, { method, headers: bearer(token), ...(body === undefined ? {} : { json: body }) }).then((response) => ({
        status: response.statusCode,
        type: response.headers['content-type'],
        body: JSON.parse(response.body),
      }));
    const credentials = { client_id: 'x', client_secret: secretOf('x') };
    const cases: Array<[unknown, string]> = [
      [{ actorType: 'source', name: 'postgres', configuration: { credentials } }, 'body.name'],
      [{ actorType: 'source', name: 'nothing-of-that-name', configuration: { credentials } }, 'body.name'],
      [{ actorType: 'destination', name: 'slack', configuration: { credentials } }, 'body.actorType'],
      [{ actorType: 'source', name: 'slack', configuration: { credentials: { client_id: 'x' } } }, 'body.configuration.credentials.client_secret'],
      [
        { actorType: 'source', name: 'slack', configuration: { credentials: { ...credentials, client_id: 'two words' } } },
        'body.configuration.credentials.client_id',
      ],
      [{ actorType: 'source', name: 'slack', configuration: { credentials, colour: 'blue' } }, 'body.configuration.colour'],
      [{ actorType: 'source', name: 'slack' }, 'body.configuration'],
      [{ actorType: 'source', configuration: { credentials } }, 'body.name'],
    ];
    for (const [body, loc] of cases) {
      const answer = await raw(`/workspaces/${workspaceA}/oauthCredentials`, body);
      expect([answer.status, answer.type], JSON.stringify(body)).toEqual([400, 'application/problem+json']);
      expect(answer.body).toMatchObject({ status: 400, title: 'Bad Request', detail: expect.any(String) });
      expect(
        answer.body.issues.map((issue: { loc: string[] }) => issue.loc.join('.')),
        JSON.stringify(body),
      ).toContain(loc);
    }
    expect((await raw(`/workspaces/not-a-uuid/oauthCredentials`, cases[0]![0])).status).toBe(404);
    expect((await raw(`/organizations/${organizationId}/oauthCredentials/source/never-registered`, undefined, 'DELETE')).status).toBe(404);
  });

  it('answers another organization and missing tokens as the other public API routes do', async () => {
    const other = await otherOrganizationToken();
    const credentials = { client_id: 'stolen', client_secret: secretOf('stolen') };
    const body = { actorType: 'source', name: 'slack', configuration: { credentials } };
    const theirs = await call('put', WORKSPACE_APPS, `/workspaces/${workspaceA}/oauthCredentials`, { body, token: other, extension: true, ignore: OWN_NAMES });
    expect([theirs.status, theirs.body.type]).toEqual([404, 'urn:plugboard:error:workspace_not_found']);
    const foreignOrg = await call('put', ORGANIZATION_APPS, `/organizations/${organizationId}/oauthCredentials`, {
      body,
      token: other,
      extension: true,
      ignore: OWN_NAMES,
    });
    expect(foreignOrg.status).toBe(403);
    expect((await remove('organizations', organizationId, 'slack', { token: other })).status).toBe(403);
    expect((await remove('workspaces', workspaceA, 'slack', { token: other })).status).toBe(404);
    const anonymous = await fx.http.put(`v1/organizations/${organizationId}/oauthCredentials`, { json: body });
    expect(anonymous.statusCode).toBe(401);
    // Nothing of theirs was registered here.
    expect(await clientOf(workspaceA, 'slack')).toBe('urn:plugboard:error:oauth_app_not_registered');
  });

  it('keeps client secrets sealed: in no answer, no log line, no row or database file in clear', async () => {
    expect(SECRETS.length).toBeGreaterThan(10);
    const answered = answers.map((answer) => answer.body.toString()).join('\n');
    for (const secret of SECRETS) expect(answered.includes(secret), secret).toBe(false);
    await expectNowhereInClear(fx, SECRETS);
    const rows = JSON.stringify(await fx.server.hosted.cloudDb.all('SELECT * FROM oauth_apps'));
    for (const secret of SECRETS) expect(rows.includes(secret)).toBe(false);
  });

  // Last: it reads every answer the tests above got.
  it('answers as its own /openapi.json declares, every app operation with a 2xx at least once on both roots', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    const own = conformance.operationKeys({ tagged: 'OAuth' }).filter((key) => key.includes('/oauthCredentials'));
    expect(own).toHaveLength(12);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
