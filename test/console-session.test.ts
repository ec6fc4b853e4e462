import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { setCookies, signInToConsole, workspaceReader, type ConsoleSession } from './helpers/console-session.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

/**
 * The console's server layer: its page under a strict CSP, sign-in to an httpOnly SameSite=Strict
 * cookie, the API reached through it with CSRF checks, renewal while in use, sign-out, and the secret
 * never seen again after it was posted.
 */
describe.each(BACKENDS)('console session (%s)', (backend) => {
  let fx: HostedFixture;
  let origin: string;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    fx = await startHostedFixture(backend, { clock: () => Date.now() + clockOffsetMs });
    origin = new URL(fx.server.url).origin;
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  });

  const api = (session: ConsoleSession, method: string, path: string, options: { json?: unknown; headers?: Record<string, string> } = {}) =>
    fx.http(`console/api/${path}`, {
      method: method as 'GET',
      ...(options.json === undefined ? {} : { json: options.json }),
      headers: { cookie: session.cookie, ...options.headers },
    });

  it('serves its page and files under a CSP with no inline script or style', async () => {
    const page = await fx.http.get('console');
    expect(page.statusCode).toBe(200);
    const policy = page.headers['content-security-policy']!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.body).not.toMatch(/\sstyle=/);
    for (const [, path] of page.body.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)) {
      const asset = await fx.http.get(path!.slice(1));
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
    }
  });

  it('signs in to an httpOnly SameSite=Strict cookie, and never answers the secret', async () => {
    const response = await fx.http.post('console/session', { json: { client_id: fx.clientId, client_secret: fx.clientSecret }, headers: { origin } });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(fx.clientSecret);
    const cookies = setCookies(response);
    const session = cookies.get('plugboard_console')!;
    expect(session.header).toMatch(/httponly/i);
    expect(session.header).toMatch(/samesite=strict/i);
    expect(session.header).toMatch(/path=\/console/i);
    expect(session.header).not.toMatch(/secure/i); // plain HTTP here: Secure only over HTTPS
    expect(cookies.get('plugboard_console_csrf')!.header).not.toMatch(/httponly/i);
    expect(session.value).not.toContain(fx.clientSecret);
    const page = await fx.http.get('console', { headers: { cookie: `plugboard_console=${session.value}` } });
    expect(page.body).not.toContain(fx.clientSecret);
    expect(fx.logs.join('\n')).not.toContain(fx.clientSecret);
  });

  it('refuses wrong credentials, and a sign-in posted from another site', async () => {
    const wrong = await fx.http.post('console/session', { json: { client_id: fx.clientId, client_secret: 'not-it' }, headers: { origin } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const elsewhere = await fx.http.post('console/session', {
      json: { client_id: fx.clientId, client_secret: fx.clientSecret },
      headers: { origin: 'https://evil.example' },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.body).not.toContain(fx.clientSecret);
    const empty = await fx.http.post('console/session', { json: { client_id: fx.clientId }, headers: { origin } });
    expect(empty.statusCode).toBe(422);
  });

  it('reaches the API through the cookie: reads with ETags, changes only with the CSRF token from its own origin', async () => {
    const session = await signInToConsole(fx.http, fx.clientId, fx.clientSecret, origin);
    expect((await fx.http.get('console/api/v1/workspaces')).statusCode).toBe(401);
    const read = await api(session, 'GET', 'v1/workspaces');
    expect(read.statusCode).toBe(200);
    const etag = read.headers.etag!;
    expect(etag).toMatch(/^W\//);
    expect((await api(session, 'GET', 'v1/workspaces', { headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    const create = { name: 'console workspace' };
    expect((await api(session, 'POST', 'v1/workspaces', { json: create })).statusCode).toBe(403);
    expect((await api(session, 'POST', 'v1/workspaces', { json: create, headers: { 'x-csrf-token': 'forged', origin } })).statusCode).toBe(403);
    const crossSite = { 'x-csrf-token': session.csrf, origin: 'https://evil.example' };
    expect((await api(session, 'POST', 'v1/workspaces', { json: create, headers: crossSite })).statusCode).toBe(403);
    const made = await api(session, 'POST', 'v1/workspaces', { json: create, headers: { 'x-csrf-token': session.csrf, origin } });
    expect(made.statusCode, made.body).toBeLessThan(300);
    expect((await api(session, 'GET', 'v1/workspaces', { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('renews the token past half its life, and signs out', async () => {
    const session = await signInToConsole(fx.http, fx.clientId, fx.clientSecret, origin);
    expect(setCookies(await api(session, 'GET', 'v1/workspaces')).size).toBe(0);
    clockOffsetMs = 8 * 60_000;
    try {
      const renewed = setCookies(await api(session, 'GET', 'v1/workspaces'));
      expect(renewed.get('plugboard_console')!.value).not.toBe(session.token);
      expect(renewed.get('plugboard_console')!.header).toMatch(/httponly/i);
      expect(renewed.get('plugboard_console_csrf')!.value).toBe(session.csrf);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await fx.http.delete('console/session', { headers: { cookie: session.cookie, origin } })).statusCode).toBe(403);
    const out = await fx.http.delete('console/session', { headers: { cookie: session.cookie, origin, 'x-csrf-token': session.csrf } });
    expect(out.statusCode).toBe(204);
    const cleared = setCookies(out);
    expect(cleared.get('plugboard_console')!.value).toBe('');
  });

  it("keeps the API's permissions: a workspace reader's session reads and changes nothing", async () => {
    const admin = await fx.operatorToken();
    const workspaceId = JSON.parse((await fx.http.post('v1/workspaces', { headers: bearer(admin), json: { name: 'readers' } })).body).workspaceId;
    const { clientId, clientSecret } = await workspaceReader(fx, workspaceId);
    const reader = await signInToConsole(fx.http, clientId, clientSecret, origin);
    expect((await api(reader, 'GET', `v1/workspaces/${workspaceId}`)).statusCode).toBe(200);
    const source = { name: 'chat', workspaceId, configuration: { sourceType: 'chat', credentials: { token: CHAT_TOKEN } } };
    const refused = await api(reader, 'POST', 'v1/sources', { json: source, headers: { 'x-csrf-token': reader.csrf, origin } });
    expect(refused.statusCode).toBe(403);

    // Workspace routes (scoped tokens): minted for the same application, so bounded by the same permissions.
    const connector = await fx.createConnector('readers', 'chat', { token: CHAT_TOKEN });
    const inWorkspace = `workspace/${workspaceId}/api/v1`;
    const listed = JSON.parse((await api(reader, 'GET', `${inWorkspace}/integrations/connectors`)).body);
    expect(listed.data.map((item: { id: string }) => item.id)).toEqual([connector.id]);
    const search = { entity: 'users', action: 'search', params: {} };
    const headers = { 'x-csrf-token': reader.csrf, origin };
    expect((await api(reader, 'POST', `${inWorkspace}/connectors/sources/${connector.id}/execute`, { json: search, headers })).statusCode).toBe(403);
    const unknown = `workspace/${randomUUID()}/api/v1/integrations/connectors`;
    expect((await api(reader, 'GET', unknown)).statusCode).toBe(404);
  });
});
