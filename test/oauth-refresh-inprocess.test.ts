/**
 * In-process OAuth credentials stay alive: refreshed before they expire and once on the provider's
 * expired-token answer, one refresh shared by concurrent calls, the app told of each new token, and a
 * revoked grant a 401 credentials_expired that is never retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, CredentialsExpiredError, type PlugboardRuntime } from '../index.ts';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { startSandbox as startDriveSandbox, type DriveSandbox } from '../connectors/file-storage/sandbox/index.ts';
import type { OAuthCredentials } from '../core/sdk/index.ts';
import type { DownloadResult } from '../core/execution/types.ts';
import { grantedCredentials } from './helpers/oauth-grants.ts';
import { refreshTokens } from '../core/oauth/token-endpoint.ts';
import { listen } from '../testing/index.ts';
import { createServer, type Server } from 'node:http';

let runtime: PlugboardRuntime;
beforeAll(async () => {
  runtime = await createRuntime();
});

describe('chat (Slack rotates refresh tokens)', () => {
  let sandbox: SlackSandbox;
  beforeAll(async () => {
    sandbox = await SlackSandbox.start({ token: 'xoxb-static', tokenTtlSeconds: 3600 });
  });
  afterAll(() => sandbox.close());

  async function connected(onCredentialsRefreshed?: (credentials: OAuthCredentials) => unknown) {
    const credentials = await grantedCredentials(sandbox, 'users:read');
    return { credentials, chat: runtime.connector('chat', { credentials, base_url: sandbox.url, onCredentialsRefreshed }) };
  }

  it('renews on token_expired, retries once, and hands the app the rotated refresh token', async () => {
    const refreshed: OAuthCredentials[] = [];
    const { credentials, chat } = await connected((next) => refreshed.push(next));
    const before = sandbox.oauthStats().grants.refresh_token;
    sandbox.expireAccessTokens();
    const result = await chat.execute({ entity: 'users', action: 'list', params: { limit: 2 } });
    expect(result.status).toBe('success');
    expect(sandbox.oauthStats().grants.refresh_token).toBe(before + 1);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).toMatchObject({ client_id: credentials.client_id, client_secret: credentials.client_secret, token_url: credentials.token_url });
    expect(refreshed[0]!.access_token).not.toBe(credentials.access_token);
    expect(refreshed[0]!.refresh_token).not.toBe(credentials.refresh_token);
    expect(Date.parse(String(refreshed[0]!.expires_at))).toBeGreaterThan(Date.now());
  });

  it('50 concurrent calls on an expired token share one refresh', async () => {
    const { chat } = await connected();
    sandbox.expireAccessTokens();
    const before = sandbox.oauthStats().grants.refresh_token;
    const results = await Promise.all(Array.from({ length: 50 }, () => chat.execute({ entity: 'users', action: 'list', params: { limit: 1 } })));
    expect(results.every((result) => result.status === 'success')).toBe(true);
    expect(sandbox.oauthStats().grants.refresh_token).toBe(before + 1);
  });

  it('instances made from the same stored credentials share one renewal, and the app hears of it once', async () => {
    const credentials = await grantedCredentials(sandbox, 'users:read');
    const told: OAuthCredentials[] = [];
    // An app that builds a client per request, from what it stored.
    const clientOfRequest = () => runtime.connector('chat', { credentials, base_url: sandbox.url, onCredentialsRefreshed: (next) => told.push(next) });
    sandbox.expireAccessTokens();
    const before = sandbox.oauthStats().grants.refresh_token;
    const results = await Promise.all(Array.from({ length: 10 }, () => clientOfRequest().execute({ entity: 'users', action: 'list', params: { limit: 1 } })));
    expect(results.every((result) => result.status === 'success')).toBe(true);
    // A later client starts from the renewed token: no refresh, no token_expired round trip.
    await clientOfRequest().execute({ entity: 'users', action: 'list', params: { limit: 1 } });
    expect(sandbox.oauthStats().grants.refresh_token - before).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('renews before the call when expires_at has passed, so the upstream never sees the old token', async () => {
    const credentials = await grantedCredentials(sandbox, 'users:read');
    const chat = runtime.connector('chat', { credentials: { ...credentials, expires_at: new Date(Date.now() - 1000).toISOString() }, base_url: sandbox.url });
    const refusedBefore = sandbox.oauthStats().grants.refresh_token;
    const requestsBefore = sandbox.requests.length;
    await chat.execute({ entity: 'users', action: 'list', params: { limit: 1 } });
    expect(sandbox.oauthStats().grants.refresh_token).toBe(refusedBefore + 1);
    // One API call: the renewal came first, no token_expired answer was needed.
    expect(sandbox.requests.slice(requestsBefore).filter((request) => request.method === 'users.list')).toHaveLength(1);
  });

  it('a revoked grant is a 401 credentials_expired, and later calls do not ask the provider again', async () => {
    const { chat } = await connected();
    sandbox.revokeGrants();
    sandbox.expireAccessTokens();
    const refusedBefore = Object.values(sandbox.oauthStats().refused).reduce((sum, n) => sum + n, 0);
    const first = await chat.execute({ entity: 'users', action: 'list', params: {} }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(CredentialsExpiredError);
    expect(first).toMatchObject({ status: 401, error_code: 'credentials_expired' });
    await expect(chat.execute({ entity: 'users', action: 'list', params: {} })).rejects.toBeInstanceOf(CredentialsExpiredError);
    const refusedAfter = Object.values(sandbox.oauthStats().refused).reduce((sum, n) => sum + n, 0);
    expect(refusedAfter - refusedBefore).toBe(1);
    // No secret of the grant in the error the app sees.
    expect(JSON.stringify(first) + String((first as Error).message)).not.toMatch(/xoxe|secret/);
  });

  it('refuses refresh fields that cannot work, naming the field and never its value', () => {
    const base = { access_token: 'xoxe.xoxb-1', refresh_token: 'xoxe-1-r' };
    expect(() => runtime.connector('chat', { credentials: base as OAuthCredentials, base_url: sandbox.url })).toThrow(/client_id/);
    expect(() =>
      runtime.connector('chat', { credentials: { ...base, client_id: 'c', client_secret: 's', expires_at: 'soon' }, base_url: sandbox.url }),
    ).toThrow(/expires_at/);
    expect(() => runtime.connector('chat', { credentials: { token: 't', refresh_token: 'r' } as never, base_url: sandbox.url })).toThrow(/refresh_token/);
  });
});

describe('file-storage (Google: 401 UNAUTHENTICATED, no rotation)', () => {
  let sandbox: DriveSandbox;
  beforeAll(async () => {
    sandbox = await startDriveSandbox({ token: 'ya29.static', tokenTtlSeconds: 3600, files: 5 });
  });
  afterAll(() => sandbox.close());

  it('renews on a 401 for JSON calls and downloads alike, the refresh token kept', async () => {
    const refreshed: OAuthCredentials[] = [];
    const credentials = await grantedCredentials(sandbox, 'https://www.googleapis.com/auth/drive.readonly');
    const drive = runtime.connector('file-storage', { credentials, base_url: sandbox.url, onCredentialsRefreshed: (next) => refreshed.push(next) });
    sandbox.expireAccessTokens();
    const listed = await drive.execute({ entity: 'files', action: 'list', params: { pageSize: 5, q: "mimeType != 'application/vnd.google-apps.folder'" } });
    expect(listed.status).toBe('success');
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.refresh_token).toBe(credentials.refresh_token);
    const file = (listed.result as Array<{ id: string; mimeType: string }>).find((f) => !f.mimeType.startsWith('application/vnd.google-apps'));
    expect(file).toBeDefined();
    sandbox.expireAccessTokens();
    const download = (await drive.execute({ entity: 'files', action: 'download', params: { fileId: file!.id, alt: 'media' } })) as unknown as DownloadResult;
    expect(download.status).toBe(200);
    let bytes = 0;
    for await (const chunk of download.body) bytes += chunk.length;
    expect(bytes).toBeGreaterThan(0);
    expect(refreshed).toHaveLength(2);
  });

  it('a revoked Google grant (400 invalid_grant) is a 401 credentials_expired', async () => {
    const credentials = await grantedCredentials(sandbox, 'https://www.googleapis.com/auth/drive.readonly');
    const drive = runtime.connector('file-storage', { credentials, base_url: sandbox.url });
    sandbox.revokeGrants();
    await expect(drive.execute({ entity: 'about', action: 'get', params: { fields: 'user' } })).rejects.toMatchObject({
      status: 401,
      error_code: 'credentials_expired',
    });
  });
});

describe('a token endpoint that misbehaves', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Answers every token request with megabytes of JSON-looking bytes.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"access_token": "${'x'.repeat(2 * 1024 * 1024)}"}`);
    });
    url = `${await listen(server)}/token`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is cut off past 64 KB: a 502 naming it, nothing buffered whole', async () => {
    const error = await refreshTokens({ url, clientId: 'c', clientSecret: 's', revokedCodes: [] }, 'r').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, error_code: 'oauth_token_answer_too_large' });
  });

  it('never repeats a provider error that is not a short code', async () => {
    const loud = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'no <script>alert(1)</script> secret=hunter2' }));
    });
    const loudUrl = `${await listen(loud)}/token`;
    try {
      const error = await refreshTokens({ url: loudUrl, clientId: 'c', clientSecret: 's', revokedCodes: [] }, 'r').catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 502, error_code: 'oauth_token_refused' });
      expect(String((error as Error).message)).not.toContain('hunter2');
    } finally {
      await new Promise<void>((resolve) => loud.close(() => resolve()));
    }
  });
});
