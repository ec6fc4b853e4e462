import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, bearer, startHostedFixture, TEST_PUBLIC_URL, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { callCallback, consent, decideConsent, declarativeManifest, publishDeclarative } from './helpers/oauth-consent.ts';
import { type CallAnswer, compileOperations, expectNowhereInClear, publicAccessToken, publicApiCalls, settledJob } from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * End users connecting their real accounts through the public cloud API and the widget, against the
 * sandboxes' consent pages and token endpoints: initiateOAuth, the consent allowed or denied, Plugboard's
 * callback, and sources created with the secret it grants (then checked and synced against the
 * sandboxes); single-use, expiring states and secrets bound to their workspace, source type and flow;
 * token endpoints behind the egress policy. Every request and answer of the public API is checked
 * against the official description, every answer against /openapi.json.
 */

const spec = PublicApiSpec.load();
const OPERATIONS = ['post /sources/initiateOAuth', 'post /sources', 'patch /sources/{sourceId}', 'post /v1/sources/check_connection'];
const CALLBACK = `${TEST_PUBLIC_URL}/v1/oauth/callback`;
const DONE_PAGE = `${TEST_PUBLIC_URL}/widget/oauth/done`;
const REDIRECT = 'https://app.example/connected?from=plugboard';
const ORIGIN = 'https://app.example';
const MASK = '**********';
const SLACK_CLIENT = 'slack-app-client';
const SLACK_SECRET = `slack-app-secret-${randomUUID()}`;
const DRIVE_CLIENT = 'drive-app-client.apps.googleusercontent.com';
const DRIVE_SECRET = `drive-app-secret-${randomUUID()}`;
/** Plugboard's own source names are outside the official enum of OAuth source names (OAuthActorNames). */
const OWN_NAMES = /^\/(name|sourceType) must be equal to one of the allowed values$/;
const SLACK_SETTINGS = { start_date: '2024-01-01T00:00:00Z', lookback_window: 7, join_channels: true };
const DRIVE_SETTINGS = {
  folder_url: 'https://drive.google.com/drive/folders/plugboard-test',
  streams: [{ name: 'documents', format: { filetype: 'unstructured' } }],
};

describe.each(BACKENDS)('OAuth flows on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let organizationId: string;
  let workspaceA: string;
  let workspaceB: string;
  /** The servers' clock: tests move it past the lifetimes of states and secrets. */
  let now = Date.now();
  const answers: Answer[] = [];
  let call: ReturnType<typeof publicApiCalls>;

  const initiate = (body: Record<string, unknown>, prefix?: string) =>
    call('post', '/sources/initiateOAuth', '/sources/initiateOAuth', {
      body: { redirectUrl: REDIRECT, workspaceId: workspaceA, ...body },
      ignore: OWN_NAMES,
      prefix,
    });
  /** A consent for the type, allowed: where the browser lands. */
  const connect = async (sourceType: string, workspaceId = workspaceA) => {
    const started = await initiate({ sourceType, workspaceId });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return consent(fx, started.body.consentUrl);
  };
  const createSource = (body: Record<string, unknown>, options: { extension?: boolean } = {}) =>
    call('post', '/sources', '/sources', { body: { name: `source ${randomUUID()}`, workspaceId: workspaceA, ...body }, ...options });
  const checkSource = (sourceId: string) => call('post', '/v1/sources/check_connection', '/v1/sources/check_connection', { prefix: 'api', body: { sourceId } });
  const opened = async (sourceId: string) => (await fx.server.hosted.publicApi.sources.actors.open(sourceId))!.configuration;
  const secretCount = async () => Number((await fx.server.hosted.cloudDb.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM oauth_secrets'))!.n);
  const register = (owner: 'workspaces' | 'organizations', id: string, name: string, clientId: string, clientSecret: string) =>
    call('put', `/${owner}/{${owner === 'workspaces' ? 'workspaceId' : 'organizationId'}}/oauthCredentials`, `/${owner}/${id}/oauthCredentials`, {
      body: { actorType: 'source', name, configuration: { credentials: { client_id: clientId, client_secret: clientSecret } } },
      // The official configuration is a oneOf of forty shapes that each take this one (see oauth-apps.test.ts).
      extension: true,
      ignore: OWN_NAMES,
    });
  const issuesOf = (answer: CallAnswer) => [...new Set((answer.body.issues as Array<{ loc: Array<string | number> }>).map((issue) => issue.loc.join('.')))];
  const declarative = (type: string, tokenUrl: string) => publishDeclarative(call, workspaceA, type, declarativeManifest(fx, type, tokenUrl));

  beforeAll(async () => {
    compileOperations(spec!, OPERATIONS);
    fx = await startHostedFixture(backend, { clock: () => now });
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = await publicAccessToken(fx);
    call = publicApiCalls(fx, spec!, () => token);
    organizationId = (await call('get', '/organizations', '/organizations')).body.data[0].organizationId;
    workspaceA = (await call('post', '/workspaces', '/workspaces', { body: { name: 'oauth-flow-a' } })).body.workspaceId;
    workspaceB = (await call('post', '/workspaces', '/workspaces', { body: { name: 'oauth-flow-b' } })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('asks for no consent without an app, and refuses malformed requests with problem details', async () => {
    const none = await initiate({ sourceType: 'slack' });
    expect([none.status, none.body.type]).toEqual([400, 'urn:plugboard:error:oauth_app_not_registered']);
    expect(none.body.detail).toMatch(/no OAuth app is registered for slack.*oauthCredentials/);
    expect((await register('organizations', organizationId, 'slack', SLACK_CLIENT, SLACK_SECRET)).status).toBe(200);
    expect((await register('organizations', organizationId, 'google-drive', DRIVE_CLIENT, DRIVE_SECRET)).status).toBe(200);

    const raw = (body: unknown, headers: Record<string, string> = bearer(token)) =>
      fx.http.post('v1/sources/initiateOAuth', { headers, json: body }).then((response) => ({
        status: response.statusCode,
        type: response.headers['content-type'],
        body: JSON.parse(response.body),
      }));
    const valid = { redirectUrl: REDIRECT, workspaceId: workspaceA, sourceType: 'slack' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, redirectUrl: 'javascript:alert(1)' }, 'body.redirectUrl'],
      [{ ...valid, redirectUrl: 'https://user:password@app.example/connected' }, 'body.redirectUrl'],
      [{ ...valid, redirectUrl: '/relative/path' }, 'body.redirectUrl'],
      [{ ...valid, redirectUrl: 'ftp://app.example/' }, 'body.redirectUrl'],
      [{ ...valid, sourceType: undefined }, 'body.sourceType'],
      [{ ...valid, sourceType: 'postgres' }, 'body.sourceType'],
      [{ ...valid, sourceType: undefined, name: 'no-such-type' }, 'body.name'],
      [{ ...valid, requestedScopes: [''] }, 'body.requestedScopes.0'],
      [{ ...valid, requestedScopes: ['two words'] }, 'body.requestedScopes.0'],
      [{ ...valid, colour: 'blue' }, 'body.colour'],
      [{ ...valid, workspaceId: 'not-a-uuid' }, 'body.workspaceId'],
      [{ sourceType: 'slack', workspaceId: workspaceA }, 'body.redirectUrl'],
    ];
    for (const [body, loc] of cases) {
      const answer = await raw(body);
      expect([answer.status, answer.type], JSON.stringify(body)).toEqual([400, 'application/problem+json']);
      expect(
        answer.body.issues.map((issue: { loc: string[] }) => issue.loc.join('.')),
        JSON.stringify(body),
      ).toContain(loc);
    }
    expect((await raw({ ...valid, workspaceId: randomUUID() })).status).toBe(404);
    expect((await raw(valid, {})).status).toBe(401);
    // The deprecated `name` still names the type.
    const byName = await call('post', '/sources/initiateOAuth', '/sources/initiateOAuth', {
      body: { redirectUrl: REDIRECT, workspaceId: workspaceA, name: 'slack' },
      // The official SDK's description requires sourceType; its API description still takes name.
      ignore: /required property 'sourceType'/,
    });
    expect(byName.status).toBe(200);
  });

  it("connects a Slack account: the consent URL, the sandbox's consent, the callback, a source made with the secret, checked and synced", async () => {
    const started = await initiate({ sourceType: 'slack' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const url = new URL(started.body.consentUrl);
    expect(`${url.origin}${url.pathname}`).toBe(fx.chatSandbox.authorizeUrl);
    const declared = fx.server.hosted.runtime.plugin('chat').definition.auth.oauth2!;
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: SLACK_CLIENT,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: declared.scopes.join(','),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
    });
    const callbackUrl = await decideConsent(started.body.consentUrl, 'allow');
    expect(callbackUrl).toMatch(new RegExp(`^${CALLBACK}\\?code=.+&state=${url.searchParams.get('state')}$`));
    const landing = await callCallback(fx, callbackUrl);
    expect(landing.status).toBe(302);
    expect(landing.location).toMatch(/^https:\/\/app\.example\/connected\?from=plugboard&secret_id=[A-Za-z0-9_-]{43}$/);
    expect(fx.chatSandbox.oauthStats()).toMatchObject({
      clients: [{ client_id: SLACK_CLIENT, client_secret: SLACK_SECRET }],
      grants: { authorization_code: 1 },
    });

    const made = await createSource({ configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId: landing.query.secret_id });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.configuration).toEqual({
      sourceType: 'slack',
      ...SLACK_SETTINGS,
      credentials: {
        option_title: 'Default OAuth2.0 authorization',
        client_id: SLACK_CLIENT,
        client_secret: MASK,
        access_token: MASK,
        refresh_token: MASK,
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const credentials = (await opened(made.body.sourceId)).credentials as { access_token: string; refresh_token: string };
    expect(credentials.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(credentials.refresh_token).toMatch(/^xoxe-1-/);
    expect((await checkSource(made.body.sourceId)).body).toMatchObject({ status: 'succeeded' });

    // Synced with the granted token: the users stream into a SQLite destination.
    const destination = await call('post', '/destinations', '/destinations', {
      body: { name: 'oauth tables', workspaceId: workspaceA, configuration: { destinationType: 'sqlite' } },
      extension: true,
    });
    const connection = await call('post', '/connections', '/connections', {
      body: {
        sourceId: made.body.sourceId,
        destinationId: destination.body.destinationId,
        configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] },
      },
    });
    const job = await call('post', '/jobs', '/jobs', { body: { connectionId: connection.body.connectionId, jobType: 'sync' } });
    const done = await settledJob(call, job.body.jobId);
    expect(done).toMatchObject({ status: 'succeeded', rowsSynced: fx.chatSandbox.data.users.length });

    // The secret is spent, and the state too: a replayed callback exchanges nothing and grants nothing.
    const again = await createSource({ configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId: landing.query.secret_id });
    expect([again.status, again.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
    const secrets = await secretCount();
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const replayed = await callCallback(fx, callbackUrl, browser);
    expect([replayed.status, replayed.location, replayed.contentType]).toEqual([400, '', 'text/html; charset=utf-8']);
    expect(replayed.body).toContain('already used');
    const asJson = await callCallback(fx, callbackUrl);
    expect([asJson.status, JSON.parse(asJson.body).type]).toEqual([400, 'urn:plugboard:error:invalid_oauth_state']);
    expect(await secretCount()).toBe(secrets);
    expect(fx.chatSandbox.oauthStats().grants.authorization_code).toBe(1);
    const unknown = await callCallback(fx, `${CALLBACK}?code=x&state=${'a'.repeat(43)}`);
    expect(unknown.status).toBe(400);
    expect((await callCallback(fx, `${CALLBACK}?code=x`)).status).toBe(400);

    await expectNowhereInClear(fx, [credentials.access_token, credentials.refresh_token, SLACK_SECRET]);
    const answered = answers.map((answer) => answer.body.toString()).join('\n');
    for (const secret of [credentials.access_token, credentials.refresh_token, SLACK_SECRET]) expect(answered.includes(secret)).toBe(false);
  });

  it('connects a Google Drive account with PKCE and offline access; requested scopes replace the declared ones', async () => {
    const started = await initiate({ sourceType: 'google-drive' });
    const url = new URL(started.body.consentUrl);
    expect(`${url.origin}${url.pathname}`).toBe(fx.driveSandbox.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: DRIVE_CLIENT,
      redirect_uri: CALLBACK,
      scope: 'https://www.googleapis.com/auth/drive.readonly',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const landing = await consent(fx, started.body.consentUrl);
    expect(landing.query).toEqual({ from: 'plugboard', secret_id: expect.any(String) });
    // The official description requires google-drive's credentials, which the secret gives here.
    const made = await createSource(
      { configuration: { sourceType: 'google-drive', ...DRIVE_SETTINGS }, secretId: landing.query.secret_id },
      { extension: true },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.configuration).toEqual({
      sourceType: 'google-drive',
      ...DRIVE_SETTINGS,
      credentials: { auth_type: 'Client', client_id: MASK, client_secret: MASK, refresh_token: MASK, access_token: MASK, expires_at: expect.any(String) },
    });
    const credentials = (await opened(made.body.sourceId)).credentials as Record<string, string>;
    expect([credentials.client_id, credentials.access_token]).toEqual([DRIVE_CLIENT, expect.stringMatching(/^ya29\./)]);
    expect((await checkSource(made.body.sourceId)).body).toMatchObject({ status: 'succeeded' });
    expect(fx.driveSandbox.oauthStats()).toMatchObject({
      clients: [{ client_id: DRIVE_CLIENT, client_secret: DRIVE_SECRET }],
      grants: { authorization_code: 1 },
    });

    const scoped = await initiate({ sourceType: 'slack', requestedScopes: ['users:read', 'channels:read'], requestedOptionalScopes: ['users:read.email'] });
    expect(new URL(scoped.body.consentUrl).searchParams.get('scope')).toBe('users:read,channels:read,users:read.email');
  });

  it('a consent the user denies comes back as error=access_denied, and grants nothing', async () => {
    const grants = fx.chatSandbox.oauthStats().grants.authorization_code;
    const started = await initiate({ sourceType: 'chat' });
    const landing = await consent(fx, started.body.consentUrl, 'deny');
    expect([landing.status, landing.location]).toEqual([302, `${REDIRECT}&error=access_denied`]);
    expect(fx.chatSandbox.oauthStats().grants.authorization_code).toBe(grants);
  });

  it('a secret serves a source of its own workspace and type only, stays for it when refused, and replaces credentials by PATCH', async () => {
    const landing = await connect('slack');
    const secretId = landing.query.secret_id!;
    const otherWorkspace = await createSource({ workspaceId: workspaceB, configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId });
    expect([otherWorkspace.status, otherWorkspace.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
    expect(otherWorkspace.body.detail).toMatch(/another workspace/);
    const otherType = await createSource({ configuration: { sourceType: 'chat' }, secretId }, { extension: true });
    expect([otherType.status, otherType.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
    // A configuration the type refuses leaves the secret for the next try.
    const refused = await createSource({ configuration: { sourceType: 'slack', ...SLACK_SETTINGS, lookback_window: 400 }, secretId }, { extension: true });
    expect([refused.status, issuesOf(refused)]).toEqual([400, ['body.configuration.lookback_window']]);
    const made = await createSource({ configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const before = (await opened(made.body.sourceId)).credentials as Record<string, string>;

    // A Plugboard shape takes the credentials object as it is; no token URL, so refreshes follow the deployment's.
    const chat = await connect('chat');
    const own = await createSource({ configuration: { sourceType: 'chat', lookback_window: 3 }, secretId: chat.query.secret_id }, { extension: true });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.configuration.credentials).toEqual({
      access_token: MASK,
      refresh_token: MASK,
      client_id: SLACK_CLIENT,
      client_secret: MASK,
      expires_at: expect.any(String),
    });
    expect((await checkSource(own.body.sourceId)).body).toMatchObject({ status: 'succeeded' });

    const renewed = await connect('slack');
    const patched = await call('patch', '/sources/{sourceId}', `/sources/${made.body.sourceId}`, {
      body: { name: 'reconnected', configuration: { lookback_window: 14 }, secretId: renewed.query.secret_id },
      // A partial configuration, merged (the official schema would want a whole one).
      extension: true,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'reconnected', configuration: { lookback_window: 14, start_date: SLACK_SETTINGS.start_date } });
    const after = (await opened(made.body.sourceId)).credentials as Record<string, string>;
    expect(after.access_token).not.toBe(before.access_token);
    expect((await checkSource(made.body.sourceId)).body).toMatchObject({ status: 'succeeded' });
    const spent = await call('patch', '/sources/{sourceId}', `/sources/${made.body.sourceId}`, { body: { secretId: renewed.query.secret_id } });
    expect([spent.status, spent.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
  });

  it('connects a declarative definition that declares an OAuth flow; its token URL goes through the egress policy', async () => {
    const allowed = await declarative('oauth-members', fx.chatSandbox.tokenUrl);
    expect((await register('workspaces', workspaceA, 'oauth-members', 'members-client', `members-secret-${randomUUID()}`)).status).toBe(200);
    const landing = await connect('oauth-members');
    expect(landing.query.secret_id).toBeDefined();
    const made = await createSource({ configuration: { sourceType: 'oauth-members' }, secretId: landing.query.secret_id }, { extension: true });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ sourceType: `declarative-${allowed}`, configuration: { credentials: { refresh_token: MASK } } });
    expect(made.body.configuration.credentials.token_url).toBeUndefined();
    expect((await checkSource(made.body.sourceId)).body).toMatchObject({ status: 'succeeded' });

    // A token URL the policy refuses (link-local, the cloud metadata range): the callback says so, and nothing is exchanged.
    await declarative('metadata-members', 'http://169.254.169.254/latest/token');
    expect((await register('workspaces', workspaceA, 'metadata-members', 'metadata-client', `metadata-secret-${randomUUID()}`)).status).toBe(200);
    const refused = await connect('metadata-members');
    expect([refused.status, refused.location]).toEqual([302, `${REDIRECT}&error=egress_refused`]);

    // A tenant's token URL in the credentials themselves is judged the same when the runtime refreshes there.
    const stale = await createSource(
      {
        configuration: {
          sourceType: 'chat',
          credentials: {
            access_token: 'xoxe.xoxb-stale',
            refresh_token: 'xoxe-1-tenant',
            client_id: 'tenant-client',
            client_secret: `tenant-secret-${randomUUID()}`,
            expires_at: '2020-01-01T00:00:00Z',
            token_url: 'http://169.254.169.254/latest/token',
          },
        },
      },
      { extension: true },
    );
    expect([stale.status, stale.body.type]).toEqual([400, 'urn:plugboard:error:egress_refused']);
  });

  it('states expire after 10 minutes and secrets after an hour', async () => {
    const started = await initiate({ sourceType: 'slack' });
    const callbackUrl = await decideConsent(started.body.consentUrl, 'allow');
    const grants = fx.chatSandbox.oauthStats().grants.authorization_code;
    now += 10 * 60_000 + 1;
    const late = await callCallback(fx, callbackUrl);
    expect(late.status).toBe(400);
    expect(fx.chatSandbox.oauthStats().grants.authorization_code).toBe(grants);

    const landing = await connect('slack');
    now += 60 * 60_000 + 1;
    token = await publicAccessToken(fx);
    const expired = await createSource({ configuration: { sourceType: 'slack', ...SLACK_SETTINGS }, secretId: landing.query.secret_id });
    expect([expired.status, expired.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
    // Expired rows are purged as new ones are made.
    await connect('slack');
    const left = await fx.server.hosted.cloudDb.all<{ expires_at: number | string }>('SELECT expires_at FROM oauth_secrets');
    expect(left.every((row) => Number(row.expires_at) > now)).toBe(true);
  });

  it("the widget connects an account from a template: Plugboard's done page gets state and secret_id, the embedded source takes the secret", async () => {
    const operator = await fx.operatorToken();
    const hosted = (method: 'POST' | 'PATCH', path: string, auth: string, body?: unknown, headers: Record<string, string> = {}) =>
      fx.http(path, { method, headers: { ...bearer(auth), ...headers }, ...(body === undefined ? {} : { json: body }) });
    const template = async (name: string, connectorType: string, tags: string[]) =>
      JSON.parse((await hosted('POST', 'api/v1/integrations/templates/sources', operator, { name, connector_type: connectorType, tags })).body).id as string;
    const chatTemplate = await template('Team chat', 'chat', ['chat']);
    const filesTemplate = await template('Files', 'file-storage', ['chat']);
    const hidden = await template('Hidden', 'chat', ['internal']);
    const issued = await hosted('POST', 'api/v1/embedded/widget-token', operator, {
      workspace_name: 'oauth-widget-ws',
      allowed_origin: ORIGIN,
      selected_source_template_tags: ['chat'],
    });
    const widget = JSON.parse(Buffer.from(JSON.parse(issued.body).token, 'base64').toString()).token as string;
    const scoped = await fx.scopedToken('oauth-widget-ws');
    const fromWidget = { origin: ORIGIN };
    const initiateEmbedded = (templateId: string, auth = widget) =>
      hosted('POST', 'api/v1/embedded/oauth/initiate', auth, { source_template_id: templateId }, fromWidget);

    const started = await initiateEmbedded(chatTemplate);
    expect([started.statusCode, started.headers['access-control-allow-origin']], started.body).toEqual([200, ORIGIN]);
    const { consent_url: consentUrl, state } = JSON.parse(started.body);
    expect(new URL(consentUrl).searchParams.get('state')).toBe(state);
    expect(new URL(consentUrl).searchParams.get('redirect_uri')).toBe(CALLBACK);
    const landing = await consent(fx, consentUrl);
    expect(landing.location).toMatch(new RegExp(`^${DONE_PAGE}\\?state=${state}&secret_id=[A-Za-z0-9_-]{43}$`));
    const secretId = landing.query.secret_id!;

    // A public API source cannot take a widget's secret, nor an embedded source an API one.
    const apiUse = await createSource({ configuration: { sourceType: 'chat' }, secretId }, { extension: true });
    expect([apiUse.status, apiUse.body.type]).toEqual([400, 'urn:plugboard:error:invalid_secret_id']);
    const apiSecret = (await connect('chat')).query.secret_id;
    const create = (body: Record<string, unknown>) =>
      hosted(
        'POST',
        'api/v1/embedded/sources',
        widget,
        { source_template_id: chatTemplate, name: 'My Slack', replication_config: SLACK_SETTINGS, ...body },
        fromWidget,
      );
    const wrongFlow = await create({ secret_id: apiSecret });
    expect([wrongFlow.statusCode, JSON.parse(wrongFlow.body).error_code]).toEqual([400, 'invalid_secret_id']);
    const both = await create({ secret_id: secretId, credentials: { token: 'xoxb-x' } });
    expect([both.statusCode, JSON.parse(both.body).detail[0]]).toEqual([
      422,
      expect.objectContaining({ loc: ['body'], msg: 'give credentials or secret_id, not both' }),
    ]);
    const neither = await create({});
    expect(neither.statusCode).toBe(422);
    const offTemplate = await hosted('POST', 'api/v1/embedded/sources', widget, { source_template_id: hidden, name: 'x', secret_id: secretId }, fromWidget);
    expect(offTemplate.statusCode).toBe(404);

    const made = await create({ secret_id: secretId });
    expect(made.statusCode, made.body).toBe(201);
    const source = JSON.parse(made.body);
    expect(source).toMatchObject({ connector_type: 'chat', auth_type: 'oauth', source_template_id: chatTemplate });
    const listed = await hosted('POST', `api/v1/connectors/sources/${source.id}/execute`, scoped, { entity: 'users', action: 'list', params: { limit: 2 } });
    expect(listed.statusCode, listed.body).toBe(200);
    const reused = await create({ secret_id: secretId });
    expect([reused.statusCode, JSON.parse(reused.body).error_code]).toEqual([400, 'invalid_secret_id']);

    // Connecting again replaces the credentials.
    const second = await consent(fx, JSON.parse((await initiateEmbedded(chatTemplate)).body).consent_url);
    const patched = await hosted('PATCH', `api/v1/embedded/sources/${source.id}`, widget, { secret_id: second.query.secret_id }, fromWidget);
    expect(patched.statusCode, patched.body).toBe(200);
    const patchedBoth = await hosted('PATCH', `api/v1/embedded/sources/${source.id}`, widget, { secret_id: 'x', credentials: { token: 'y' } }, fromWidget);
    expect(patchedBoth.statusCode).toBe(422);

    // Denied: the done page learns it with the state.
    const denied = await initiateEmbedded(chatTemplate);
    const { consent_url: deniedUrl, state: deniedState } = JSON.parse(denied.body);
    expect((await consent(fx, deniedUrl, 'deny')).location).toBe(`${DONE_PAGE}?state=${deniedState}&error=access_denied`);

    // A template its tags hide is not found; a template of a type without an app registered is a 400.
    expect((await initiateEmbedded(hidden)).statusCode).toBe(404);
    expect(
      (
        await call(
          'delete',
          '/organizations/{organizationId}/oauthCredentials/{actorType}/{name}',
          `/organizations/${organizationId}/oauthCredentials/source/google-drive`,
        )
      ).status,
    ).toBe(204);
    const noApp = await initiateEmbedded(filesTemplate);
    expect([noApp.statusCode, JSON.parse(noApp.body).error_code]).toEqual([400, 'oauth_app_not_registered']);
    // A scoped token may ask too (the operator's backend, for its own page).
    expect((await initiateEmbedded(chatTemplate, scoped)).statusCode).toBe(200);
  });

  it('serves initiateOAuth and the callback under /api/public/v1 too', async () => {
    const started = await initiate({ sourceType: 'slack' }, 'api/public/v1');
    expect(started.status).toBe(200);
    const callbackUrl = await decideConsent(started.body.consentUrl, 'allow');
    const landing = await callCallback(fx, callbackUrl, {}, 'api/public/v1');
    expect([landing.status, landing.query.secret_id]).toEqual([302, expect.any(String)]);
  });

  // Last: it reads every answer the tests above got.
  it('answers as its own /openapi.json declares, every OAuth operation with a 2xx (or its redirect) at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 400).map((answer) => conformance.operationOf(answer)));
    const own = conformance.operationKeys({ tagged: 'OAuth' }).filter((key) => !key.includes('/oauthCredentials'));
    expect(own.sort()).toEqual([
      'GET /api/public/v1/oauth/callback',
      'GET /v1/oauth/callback',
      'POST /api/public/v1/sources/initiateOAuth',
      'POST /api/v1/embedded/oauth/initiate',
      'POST /v1/sources/initiateOAuth',
    ]);
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});
