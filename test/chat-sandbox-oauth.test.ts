/**
 * The Slack sandbox speaks OAuth v2 as Slack does with token rotation on: the consent page, the code
 * exchange and refresh at oauth.v2.access with Slack's error codes, expiring and revoked tokens on
 * API calls, and the controls tests drive it with. The static token keeps working throughout.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SlackSandbox, type SlackSandboxOptions } from '../connectors/chat/sandbox/index.ts';
import { oauth } from '../testing/index.ts';

const TOKEN = 'xoxb-static-oauth-test-0001';
const REDIRECT = 'https://app.example.com/oauth/slack/callback?tenant=7';
const SCOPES = 'channels:read,chat:write,users:read';
const CLIENT = { client_id: '1111.2222', client_secret: 'shh-secret' };

const running: SlackSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function start(options: Partial<SlackSandboxOptions> = {}): Promise<SlackSandbox> {
  const sandbox = await SlackSandbox.start({ token: TOKEN, users: 8, channels: 4, messagesPerChannel: 3, ...options });
  running.push(sandbox);
  return sandbox;
}

function authorizeUrl(sb: SlackSandbox, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    client_id: CLIENT.client_id,
    scope: SCOPES,
    user_scope: 'search:read',
    redirect_uri: REDIRECT,
    state: 's-42',
    ...params,
  });
  return `${sb.authorizeUrl}?${query}`;
}

/** oauth.v2.access with a form body (client credentials in it unless `basic` is given). */
async function access(sb: SlackSandbox, fields: Record<string, string>, basic?: string): Promise<any> {
  const headers: Record<string, string> = basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {};
  const response = await fetch(sb.tokenUrl, { method: 'POST', body: new URLSearchParams(fields), headers });
  expect(response.status).toBe(200);
  return response.json();
}

async function api(sb: SlackSandbox, method: string, token: string, args: Record<string, string> = {}): Promise<any> {
  const response = await fetch(`${sb.url}/${method}?${new URLSearchParams(args)}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json();
}

async function control(sb: SlackSandbox, path: string, method = 'POST', token = TOKEN): Promise<Response> {
  return fetch(`${sb.url.replace(/\/api$/, '')}/_sandbox/oauth${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}

/** Consent (allow) and exchange: the tokens oauth.v2.access answers. */
async function install(sb: SlackSandbox, params: Record<string, string> = {}, exchange: Record<string, string> = {}): Promise<any> {
  const back = await oauth.consentTo(authorizeUrl(sb, params), 'allow');
  const body = await access(sb, { ...CLIENT, code: back.searchParams.get('code')!, redirect_uri: REDIRECT, ...exchange });
  expect(body.ok).toBe(true);
  return body;
}

describe('Slack sandbox: OAuth v2', () => {
  it('runs the code flow over HTTP: consent page, Allow, redirect with code and state, exchange, API calls with the token', async () => {
    const sb = await start();
    expect(sb.authorizeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/v2\/authorize$/);
    expect(sb.tokenUrl).toBe(`${sb.url}/oauth.v2.access`);

    const page = await oauth.openConsentPage(authorizeUrl(sb));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`is requesting permission to access the ${sb.data.team.name} workspace`);
    expect(page.html).toContain('<button name="decision" value="allow">Allow</button>');
    expect(page.html).toMatch(/<button name="decision" value="deny">(Cancel|Deny)<\/button>/);
    for (const scope of [...SCOPES.split(','), 'search:read']) expect(page.html).toContain(`<li>${scope}</li>`);
    expect(new URL(page.action).pathname).toBe('/oauth/v2/authorize');
    expect(page.fields.get('redirect_uri')).toBe(REDIRECT);
    expect(page.fields.get('state')).toBe('s-42');

    const allowed = await oauth.submitConsent(page, 'allow');
    expect(allowed.status).toBe(302);
    const back = new URL(allowed.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('https://app.example.com/oauth/slack/callback');
    expect([...back.searchParams.keys()]).toEqual(['tenant', 'code', 'state']);
    expect(back.searchParams.get('state')).toBe('s-42');

    const tokens = await access(sb, { ...CLIENT, code: back.searchParams.get('code')!, redirect_uri: REDIRECT });
    expect(tokens).toEqual({
      ok: true,
      app_id: expect.stringMatching(/^A[A-Z0-9]+$/),
      authed_user: { id: expect.stringMatching(/^U/) },
      scope: SCOPES,
      token_type: 'bot',
      access_token: expect.stringMatching(/^xoxe\.xoxb-/),
      bot_user_id: sb.botUserId,
      team: { id: sb.data.team.id, name: sb.data.team.name },
      enterprise: null,
      is_enterprise_install: false,
      expires_in: 43_200,
      refresh_token: expect.stringMatching(/^xoxe-1-/),
    });
    expect(await api(sb, 'auth.test', tokens.access_token)).toMatchObject({ ok: true, user_id: sb.botUserId, team_id: sb.data.team.id });
    expect((await api(sb, 'users.list', tokens.access_token, { limit: '2' })).ok).toBe(true);
    expect((await api(sb, 'auth.test', TOKEN)).ok).toBe(true);
  });

  it('Deny redirects with access_denied and the state; bad requests get an error page, never a redirect', async () => {
    const sb = await start({ oauthClient: `${CLIENT.client_id}:${CLIENT.client_secret}` });
    const denied = await oauth.consentTo(authorizeUrl(sb), 'deny');
    expect(Object.fromEntries(denied.searchParams)).toEqual({ tenant: '7', error: 'access_denied', state: 's-42' });

    const bad: Array<Record<string, string>> = [{ redirect_uri: '' }, { client_id: '' }, { client_id: 'someone-else' }];
    for (const params of bad) {
      const response = await fetch(authorizeUrl(sb, params), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).not.toContain('name="decision"');
    }
    expect(sb.oauthStats().refused).toEqual({ access_denied: 1, bad_redirect_uri: 1, invalid_client_id: 2 });
  });

  it('refuses a replayed code, another redirect_uri, a bad grant_type and missing arguments with Slack codes', async () => {
    const sb = await start();
    const code = (await oauth.consentTo(authorizeUrl(sb), 'allow')).searchParams.get('code')!;
    expect(await access(sb, { ...CLIENT, code, redirect_uri: 'https://evil.example.com/cb' })).toEqual({ ok: false, error: 'bad_redirect_uri' });

    const fresh = (await oauth.consentTo(authorizeUrl(sb), 'allow')).searchParams.get('code')!;
    expect((await access(sb, { ...CLIENT, code: fresh, redirect_uri: REDIRECT })).ok).toBe(true);
    expect(await access(sb, { ...CLIENT, code: fresh, redirect_uri: REDIRECT })).toEqual({ ok: false, error: 'invalid_code' });

    expect(await access(sb, { ...CLIENT, code: 'nope', redirect_uri: REDIRECT })).toEqual({ ok: false, error: 'invalid_code' });
    expect(await access(sb, { ...CLIENT, grant_type: 'password' })).toEqual({ ok: false, error: 'invalid_grant_type' });
    expect(await access(sb, { ...CLIENT, redirect_uri: REDIRECT })).toEqual({ ok: false, error: 'invalid_arguments' });
    expect(await access(sb, { ...CLIENT, grant_type: 'refresh_token' })).toEqual({ ok: false, error: 'invalid_arguments' });
    expect(await access(sb, { client_secret: 'x', code: 'c' })).toEqual({ ok: false, error: 'invalid_client_id' });
  });

  it('with oauthClient set, only that client id and secret are accepted, in the body or by HTTP Basic', async () => {
    const sb = await start({ oauthClient: `${CLIENT.client_id}:${CLIENT.client_secret}` });
    const code = (await oauth.consentTo(authorizeUrl(sb), 'allow')).searchParams.get('code')!;
    expect(await access(sb, { client_id: 'other', client_secret: CLIENT.client_secret, code, redirect_uri: REDIRECT })).toEqual({
      ok: false,
      error: 'invalid_client_id',
    });
    expect(await access(sb, { code, redirect_uri: REDIRECT }, `${CLIENT.client_id}:wrong`)).toEqual({ ok: false, error: 'bad_client_secret' });

    const good = (await oauth.consentTo(authorizeUrl(sb), 'allow')).searchParams.get('code')!;
    const tokens = await access(sb, { code: good, redirect_uri: REDIRECT }, `${CLIENT.client_id}:${CLIENT.client_secret}`);
    expect(tokens.ok).toBe(true);
    expect(sb.oauthStats()).toEqual({
      clients: [CLIENT],
      grants: { authorization_code: 1, refresh_token: 0 },
      refused: { invalid_client_id: 1, bad_client_secret: 1 },
    });
  });

  it('rotates refresh tokens; reusing a rotated one is invalid_refresh_token and kills the grant for good', async () => {
    const sb = await start();
    const first = await install(sb);
    const second = await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second).toMatchObject({ ok: true, token_type: 'bot', scope: SCOPES, expires_in: 43_200, bot_user_id: sb.botUserId });
    expect(second.refresh_token).toMatch(/^xoxe-1-/);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await api(sb, 'auth.test', second.access_token)).ok).toBe(true);

    expect(await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: first.refresh_token })).toEqual({
      ok: false,
      error: 'invalid_refresh_token',
    });
    expect(await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: second.refresh_token })).toEqual({
      ok: false,
      error: 'invalid_refresh_token',
    });
    expect(await api(sb, 'auth.test', second.access_token)).toEqual({ ok: false, error: 'token_revoked' });
    expect(await api(sb, 'auth.test', first.access_token)).toEqual({ ok: false, error: 'token_revoked' });
    expect(await api(sb, 'auth.test', 'xoxe.xoxb-1-never-issued')).toEqual({ ok: false, error: 'invalid_auth' });
    expect((await api(sb, 'auth.test', TOKEN)).ok).toBe(true);
    expect(sb.oauthStats().grants).toEqual({ authorization_code: 1, refresh_token: 1 });
  });

  it('tokenTtlSeconds: past its lifetime a token answers token_expired, and a refresh brings a working one', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const sb = await start({ tokenTtlSeconds: 1, clock: () => now });
    const tokens = await install(sb);
    expect(tokens.expires_in).toBe(1);
    expect((await api(sb, 'auth.test', tokens.access_token)).ok).toBe(true);
    now += 1000;
    expect(await api(sb, 'conversations.list', tokens.access_token)).toEqual({ ok: false, error: 'token_expired' });

    const renewed = await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect((await api(sb, 'auth.test', renewed.access_token)).ok).toBe(true);
    sb.expireAccessTokens();
    expect(await api(sb, 'auth.test', renewed.access_token)).toEqual({ ok: false, error: 'token_expired' });
    expect((await api(sb, 'auth.test', TOKEN)).ok).toBe(true);

    // Codes last ten minutes.
    const code = (await oauth.consentTo(authorizeUrl(sb), 'allow')).searchParams.get('code')!;
    now += 600_000;
    expect(await access(sb, { ...CLIENT, code, redirect_uri: REDIRECT })).toEqual({ ok: false, error: 'invalid_code' });
  });

  it('verifies PKCE when the authorization request carried a challenge', async () => {
    const sb = await start();
    const verifier = 'a-verifier-of-at-least-forty-three-characters-0123456789';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    const wrong = (await oauth.consentTo(authorizeUrl(sb, pkce), 'allow')).searchParams.get('code')!;
    expect(await access(sb, { ...CLIENT, code: wrong, redirect_uri: REDIRECT, code_verifier: 'not-it' })).toEqual({ ok: false, error: 'invalid_code' });
    expect((await install(sb, pkce, { code_verifier: verifier })).ok).toBe(true);
  });

  it('control endpoints: stats, expire and revoke behind the static token; auth.revoke ends an installation', async () => {
    const sb = await start();
    const tokens = await install(sb);
    expect((await control(sb, '/expire', 'POST', tokens.access_token)).status).toBe(401);
    expect((await control(sb, '', 'POST')).status).toBe(405);

    expect(await (await control(sb, '/expire')).json()).toEqual({ ok: true });
    expect(await api(sb, 'auth.test', tokens.access_token)).toEqual({ ok: false, error: 'token_expired' });
    const renewed = await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(await (await control(sb, '/revoke')).json()).toEqual({ ok: true });
    expect(await api(sb, 'auth.test', renewed.access_token)).toEqual({ ok: false, error: 'token_revoked' });
    expect(await access(sb, { ...CLIENT, grant_type: 'refresh_token', refresh_token: renewed.refresh_token })).toEqual({
      ok: false,
      error: 'invalid_refresh_token',
    });

    const other = await install(sb);
    expect(await api(sb, 'auth.revoke', other.access_token, { test: 'true' })).toEqual({ ok: true, revoked: false });
    expect(await api(sb, 'auth.revoke', other.access_token)).toEqual({ ok: true, revoked: true });
    expect(await api(sb, 'auth.test', other.access_token)).toEqual({ ok: false, error: 'token_revoked' });
    expect(await api(sb, 'auth.revoke', TOKEN)).toEqual({ ok: true, revoked: false });
    expect((await api(sb, 'auth.test', TOKEN)).ok).toBe(true);

    // A test revoking one grant by its refresh token leaves the others working.
    const [kept, ended] = [await install(sb), await install(sb)];
    expect(sb.revokeGrant(ended.refresh_token)).toBe(true);
    expect(sb.revokeGrant(ended.refresh_token)).toBe(false);
    expect(await api(sb, 'auth.test', ended.access_token)).toEqual({ ok: false, error: 'token_revoked' });
    expect((await api(sb, 'auth.test', kept.access_token)).ok).toBe(true);

    const stats = await (await control(sb, '', 'GET')).json();
    expect(stats).toEqual(sb.oauthStats());
    expect(stats).toEqual({ clients: [CLIENT], grants: { authorization_code: 4, refresh_token: 1 }, refused: { invalid_refresh_token: 1 } });
  });
});
