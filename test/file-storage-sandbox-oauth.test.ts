/**
 * The Drive sandbox speaks Google's OAuth 2.0 for web server apps: the consent page at
 * /o/oauth2/v2/auth, /token (code with PKCE, refresh without rotation) and /revoke with Google's
 * errors, and Drive's 401 for an expired or revoked access token. The static token keeps working.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type DriveSandbox, type DriveSandboxOptions, startSandbox } from '../connectors/file-storage/sandbox/index.ts';
import { oauth } from '../testing/index.ts';

const TOKEN = 'ya29.static-oauth-test';
const REDIRECT = 'http://127.0.0.1:9/oauth/google/callback';
const SCOPE = 'https://www.googleapis.com/auth/drive.readonly';
const CLIENT = { client_id: '1234-abc.apps.googleusercontent.com', client_secret: 'GOCSPX-secret' };
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const INVALID_CREDENTIALS = {
  error: {
    code: 401,
    message:
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
    status: 'UNAUTHENTICATED',
  },
};

const running: DriveSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function start(options: Partial<DriveSandboxOptions> = {}): Promise<DriveSandbox> {
  const sandbox = await startSandbox({ token: TOKEN, files: 20, drives: 1, ...options });
  running.push(sandbox);
  return sandbox;
}

function authorizeUrl(sb: DriveSandbox, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    client_id: CLIENT.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: 'st-9',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...params,
  });
  return `${sb.authorizeUrl}?${query}`;
}

async function token(sb: DriveSandbox, fields: Record<string, string>, basic?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {};
  const response = await fetch(sb.tokenUrl, { method: 'POST', body: new URLSearchParams(fields), headers });
  return { status: response.status, body: await response.json() };
}

async function codeFor(sb: DriveSandbox, params: Record<string, string> = {}): Promise<string> {
  return (await oauth.consentTo(authorizeUrl(sb, params), 'allow')).searchParams.get('code')!;
}

/** Consent (allow) and exchange: the tokens /token answers. */
async function connect(sb: DriveSandbox, params: Record<string, string> = {}): Promise<any> {
  const code = await codeFor(sb, params);
  const { status, body } = await token(sb, { ...CLIENT, grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER });
  expect(status).toBe(200);
  return body;
}

function refresh(sb: DriveSandbox, refreshToken: string) {
  return token(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: refreshToken });
}

function files(sb: DriveSandbox, accessToken: string): Promise<Response> {
  return fetch(`${sb.url}/drive/v3/files?pageSize=2`, { headers: { authorization: `Bearer ${accessToken}` } });
}

async function expectInvalidCredentials(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="https://accounts.google.com/", error="invalid_token"');
  expect(await response.json()).toEqual(INVALID_CREDENTIALS);
}

function revoke(sb: DriveSandbox, value: string): Promise<Response> {
  return fetch(`${sb.url}/revoke?token=${encodeURIComponent(value)}`, { method: 'POST' });
}

describe('Drive sandbox: Google OAuth 2.0', () => {
  it('runs the code flow with PKCE over HTTP: consent page, Allow, redirect with state, code and scope, exchange, Drive calls', async () => {
    const sb = await start();
    expect(sb.authorizeUrl).toBe(`${sb.url}/o/oauth2/v2/auth`);
    expect(sb.tokenUrl).toBe(`${sb.url}/token`);

    const page = await oauth.openConsentPage(authorizeUrl(sb));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`${CLIENT.client_id} wants to access your Google Account`);
    expect(page.html).toContain(`<li>${SCOPE}</li>`);
    expect(page.html).toContain('<button name="decision" value="allow">Allow</button>');
    expect(page.html).toMatch(/<button name="decision" value="deny">(Cancel|Deny)<\/button>/);
    expect(new URL(page.action).pathname).toBe('/o/oauth2/v2/auth');
    expect(page.fields.get('code_challenge')).toBe(CHALLENGE);

    const allowed = await oauth.submitConsent(page, 'allow');
    expect(allowed.status).toBe(302);
    const back = new URL(allowed.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect([...back.searchParams.keys()]).toEqual(['state', 'code', 'scope']);
    expect(back.searchParams.get('state')).toBe('st-9');
    expect(back.searchParams.get('scope')).toBe(SCOPE);

    const exchanged = await token(sb, {
      ...CLIENT,
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
    });
    expect(exchanged).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^ya29\./),
        expires_in: 3599,
        refresh_token: expect.stringMatching(/^1\/\//),
        scope: SCOPE,
        token_type: 'Bearer',
      },
    });
    const listed = await files(sb, exchanged.body.access_token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as any).files).toHaveLength(2);
    expect((await files(sb, TOKEN)).status).toBe(200);
  });

  it('Deny redirects with access_denied and the state; bad requests get an error page, never a redirect', async () => {
    const sb = await start({ oauthClient: `${CLIENT.client_id}:${CLIENT.client_secret}` });
    const denied = await oauth.consentTo(authorizeUrl(sb), 'deny');
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'st-9' });

    const cases: Array<[Record<string, string>, string]> = [
      [{ client_id: '' }, 'Error 400: invalid_request'],
      [{ redirect_uri: '' }, 'Error 400: invalid_request'],
      [{ response_type: 'token' }, 'Error 400: invalid_request'],
      [{ code_challenge_method: 'S512' }, 'Error 400: invalid_request'],
      [{ client_id: 'unknown.apps.googleusercontent.com' }, 'Error 401: invalid_client'],
    ];
    for (const [params, title] of cases) {
      const response = await fetch(authorizeUrl(sb, params), { redirect: 'manual' });
      expect(response.status).toBe(Number(title.slice(6, 9)));
      expect(response.headers.get('location')).toBeNull();
      const html = await response.text();
      expect(html).toContain(title);
      expect(html).not.toContain('name="decision"');
    }
    expect(sb.oauthStats().refused).toEqual({ access_denied: 1, invalid_request: 4, invalid_client: 1 });
  });

  it('refuses a replayed code, another redirect_uri and a wrong or missing PKCE verifier with invalid_grant', async () => {
    const sb = await start();
    const exchange = (code: string, extra: Record<string, string> = {}) =>
      token(sb, { ...CLIENT, grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });
    const badRequest = { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };

    const code = await codeFor(sb);
    expect((await exchange(code)).status).toBe(200);
    expect(await exchange(code)).toEqual(badRequest);
    expect(await exchange(await codeFor(sb), { redirect_uri: 'http://127.0.0.1:9/elsewhere' })).toEqual(badRequest);
    expect(await exchange(await codeFor(sb), { code_verifier: 'x'.repeat(43) })).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' },
    });
    expect(await token(sb, { ...CLIENT, grant_type: 'authorization_code', code: await codeFor(sb), redirect_uri: REDIRECT })).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Missing code verifier.' },
    });
    expect((await exchange('4/0Anever-issued')).body.error).toBe('invalid_grant');
    expect(await token(sb, { ...CLIENT, grant_type: 'password' })).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: password' },
    });
    expect(await token(sb, { ...CLIENT, grant_type: 'authorization_code', redirect_uri: REDIRECT })).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Missing required parameter: code' },
    });
  });

  it('with oauthClient set, only that client id and secret are accepted, in the body or by HTTP Basic', async () => {
    const sb = await start({ oauthClient: `${CLIENT.client_id}:${CLIENT.client_secret}` });
    const fields = { grant_type: 'authorization_code', code: await codeFor(sb), redirect_uri: REDIRECT, code_verifier: VERIFIER };
    expect(await token(sb, fields, `${CLIENT.client_id}:wrong`)).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } });
    expect(await token(sb, { ...fields, client_id: 'other.apps.googleusercontent.com', client_secret: CLIENT.client_secret })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    const good = { ...fields, code: await codeFor(sb) };
    expect((await token(sb, good, `${CLIENT.client_id}:${CLIENT.client_secret}`)).status).toBe(200);
    expect(sb.oauthStats()).toEqual({ clients: [CLIENT], grants: { authorization_code: 1, refresh_token: 0 }, refused: { invalid_client: 2 } });
  });

  it('refreshes without rotation; a revoked refresh token is invalid_grant and its access tokens are refused', async () => {
    const sb = await start();
    const tokens = await connect(sb);
    const first = await refresh(sb, tokens.refresh_token);
    expect(first).toEqual({ status: 200, body: { access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, scope: SCOPE, token_type: 'Bearer' } });
    expect((await refresh(sb, tokens.refresh_token)).status).toBe(200);
    expect((await files(sb, first.body.access_token)).status).toBe(200);

    const revoked = await revoke(sb, tokens.refresh_token);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({});
    expect(await refresh(sb, tokens.refresh_token)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
    await expectInvalidCredentials(await files(sb, first.body.access_token));
    await expectInvalidCredentials(await files(sb, tokens.access_token));
    const again = await revoke(sb, tokens.refresh_token);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_token', error_description: 'Token expired or revoked' });

    // Revoking an access token ends its grant too.
    const other = await connect(sb);
    expect((await revoke(sb, other.access_token)).status).toBe(200);
    expect((await refresh(sb, other.refresh_token)).body.error).toBe('invalid_grant');
    expect((await files(sb, TOKEN)).status).toBe(200);
    expect(sb.oauthStats().grants).toEqual({ authorization_code: 2, refresh_token: 2 });
  });

  it('tokenTtlSeconds: past its lifetime an access token is a 401 UNAUTHENTICATED with WWW-Authenticate; a refresh brings a working one', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const sb = await start({ tokenTtlSeconds: 1, clock: () => now });
    const tokens = await connect(sb);
    expect(tokens.expires_in).toBe(1);
    expect((await files(sb, tokens.access_token)).status).toBe(200);
    now += 1000;
    await expectInvalidCredentials(await files(sb, tokens.access_token));

    const renewed = await refresh(sb, tokens.refresh_token);
    expect(renewed.body.expires_in).toBe(1);
    expect((await files(sb, renewed.body.access_token)).status).toBe(200);
    sb.expireAccessTokens();
    await expectInvalidCredentials(await files(sb, renewed.body.access_token));
    expect((await files(sb, TOKEN)).status).toBe(200);

    // Codes last ten minutes.
    const code = await codeFor(sb);
    now += 600_000;
    const late = await token(sb, { ...CLIENT, grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER });
    expect(late).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } });
  });

  it('a refresh token comes with access_type=offline only, and again only when prompt=consent asks for it', async () => {
    const sb = await start();
    expect((await connect(sb, { access_type: 'online' })).refresh_token).toBeUndefined();
    expect((await connect(sb)).refresh_token).toMatch(/^1\/\//);
    expect((await connect(sb, { prompt: '' })).refresh_token).toBeUndefined();
    expect((await connect(sb, { prompt: 'select_account consent' })).refresh_token).toMatch(/^1\/\//);
  });

  it('control endpoints: stats, expire and revoke behind the static token', async () => {
    const sb = await start();
    const tokens = await connect(sb);
    const control = (path: string, method = 'POST', bearer = TOKEN) =>
      fetch(`${sb.url}/_sandbox/oauth${path}`, { method, headers: { authorization: `Bearer ${bearer}` } });
    expect((await control('/expire', 'POST', tokens.access_token)).status).toBe(401);

    expect((await control('/expire')).status).toBe(200);
    await expectInvalidCredentials(await files(sb, tokens.access_token));
    const renewed = await refresh(sb, tokens.refresh_token);
    expect((await control('/revoke')).status).toBe(200);
    await expectInvalidCredentials(await files(sb, renewed.body.access_token));
    expect((await refresh(sb, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await files(sb, TOKEN)).status).toBe(200);

    const stats = await (await control('', 'GET')).json();
    expect(stats).toEqual(sb.oauthStats());
    expect(stats).toEqual({ clients: [CLIENT], grants: { authorization_code: 1, refresh_token: 1 }, refused: { invalid_grant: 1 } });
  });
});
