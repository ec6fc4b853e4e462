/**
 * Hosted connectors keep OAuth tokens alive: concurrent executes on an expired token share one
 * refresh, across two server instances on one PostgreSQL database too (Slack revokes a grant whose
 * rotated refresh token comes back); a revoked grant makes the connector needs_reauth and its
 * executes a 401 credentials_expired, without asking the provider again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import got from 'got';
import { credentialKeys } from '../core/hosted/oauth/oauth-tokens.ts';
import type { RunningServer } from '../server/start.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { grantedCredentials } from './helpers/oauth-grants.ts';
import { plainPublicApi } from './helpers/public-api-calls.ts';
import { testDestination } from './helpers/sync-destinations.ts';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';

describe.each(BACKENDS)('hosted OAuth refresh (%s)', (backend) => {
  let fx: HostedFixture;
  let second: RunningServer | undefined;
  let token: string;

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    // On PostgreSQL a second instance shares the database: a refresh must still happen once.
    if (backend === 'postgres') second = await fx.startAnotherServer();
    token = await fx.scopedToken('oauth-user');
  }, 120_000);
  // The fixture closes the servers it started.
  afterAll(() => fx?.close());

  const connect = async (user: string) => {
    const credentials = await grantedCredentials(fx.chatSandbox, 'users:read');
    const created = await fx.http.post('v1/integrations/connectors', {
      headers: bearer(token),
      json: { external_user_id: user, connector_type: 'chat', credentials },
    });
    expect(created.statusCode, created.body).toBe(201);
    return { id: (JSON.parse(created.body) as { id: string }).id, credentials };
  };
  const executeOn = (server: { url: string }, id: string) =>
    got.post(`${server.url}/api/v1/connectors/sources/${id}/execute`, {
      headers: bearer(token),
      json: { entity: 'users', action: 'list', params: { limit: 1 } },
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
  const refreshGrants = () => fx.chatSandbox.oauthStats().grants.refresh_token;
  const refusals = () => Object.values(fx.chatSandbox.oauthStats().refused).reduce((sum, n) => sum + n, 0);

  it(`50 concurrent executes on an expired token cause exactly one refresh${backend === 'postgres' ? ', over two instances' : ''}`, async () => {
    const { id } = await connect('concurrent');
    const servers = second ? [fx.server, second] : [fx.server];
    // Each instance has built its instance of the connector before the token dies.
    for (const server of servers) expect((await executeOn(server, id)).statusCode).toBe(200);
    fx.chatSandbox.expireAccessTokens();
    const before = refreshGrants();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => executeOn(servers[i % servers.length]!, id)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(50).fill(200));
    expect(refreshGrants() - before).toBe(1);
    const row = await fx.server.hosted.cloudDb.get<{ refresh_count: number; status: string }>(
      'SELECT refresh_count, status FROM oauth_tokens WHERE credential_key = ?',
      [credentialKeys.connector(id)],
    );
    expect({ refreshes: Number(row?.refresh_count), status: row?.status }).toEqual({ refreshes: 1, status: 'active' });
    // Later executes, on either instance, go on with the renewed token.
    fx.chatSandbox.expireAccessTokens();
    for (const server of servers) expect((await executeOn(server, id)).statusCode).toBe(200);
    expect(refreshGrants() - before).toBe(2);
    // Gone, and its background replication with it (stopped at its next call), so it renews nothing during the later tests' counts.
    expect((await fx.http.delete(`api/v1/integrations/connectors/${id}`, { headers: bearer(token) })).statusCode).toBe(204);
    await Promise.all(servers.map((server) => server.hosted.replicationScheduler.idle()));
  });

  it('a revoked grant gives needs_reauth and a 401 credentials_expired, not a retry loop', async () => {
    const { id, credentials } = await connect('revoked');
    // Only this grant: the other tests' connectors, replicated in the background, must not be refused meanwhile.
    expect(fx.chatSandbox.revokeGrant(credentials.refresh_token)).toBe(true);
    fx.chatSandbox.expireAccessTokens();
    const first = await executeOn(fx.server, id);
    expect(first.statusCode).toBe(401);
    expect(JSON.parse(first.body)).toEqual({ detail: expect.stringMatching(/connected again/), error_code: 'credentials_expired' });
    // From here on nobody asks the provider: every execute, on every instance, is refused at once.
    const refusedAfterFirst = refusals();
    for (const server of second ? [fx.server, second, fx.server] : [fx.server, fx.server]) {
      const again = await executeOn(server, id);
      expect(JSON.parse(again.body).error_code).toBe('credentials_expired');
    }
    expect(refusals(), JSON.stringify(fx.chatSandbox.oauthStats().refused)).toBe(refusedAfterFirst);
    const record = JSON.parse((await fx.http.get(`api/v1/integrations/connectors/${id}`, { headers: bearer(token) })).body);
    expect(record.auth_status).toBe('needs_reauth');
    const listed = JSON.parse(
      (await fx.http.get('api/v1/integrations/connectors', { headers: bearer(token), searchParams: { external_user_id: 'revoked' } })).body,
    );
    expect(listed.data.map((connector: { auth_status: string }) => connector.auth_status)).toEqual(['needs_reauth']);
    // No token or client secret in anything the server answered or logged.
    const said = [first.body, JSON.stringify(record), fx.logs.join('\n')].join('\n');
    for (const secret of [credentials.access_token, credentials.refresh_token, credentials.client_secret]) expect(said).not.toContain(secret);
  });

  it('a token URL in credentials goes through the egress policy when it is stored', async () => {
    const credentials = { ...(await grantedCredentials(fx.chatSandbox, 'users:read')), token_url: 'http://169.254.169.254/latest/token' };
    const refused = await fx.http.post('v1/integrations/connectors', {
      headers: bearer(token),
      json: { external_user_id: 'metadata-thief', connector_type: 'chat', credentials },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error_code: 'egress_refused', detail: expect.stringContaining('credentials.token_url') });
  });

  it('a sync whose grant is gone fails at its first attempt, naming why, without retries', async () => {
    const { call, sync } = await plainPublicApi(fx);
    const { workspaceId } = await call('post', 'v1/workspaces', { name: `revoked-sync-${backend}` });
    const credentials = await grantedCredentials(fx.chatSandbox, 'users:read');
    const { sourceId } = await call('post', 'v1/sources', { name: 'chat', workspaceId, configuration: { sourceType: 'chat', credentials } });
    const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
    const { destinationId } = await call('post', 'v1/destinations', { name: 'sqlite', workspaceId, configuration: destination.configuration });
    const { connectionId } = await call('post', 'v1/connections', {
      sourceId,
      destinationId,
      configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] },
    });
    expect(fx.chatSandbox.revokeGrant(credentials.refresh_token)).toBe(true);
    fx.chatSandbox.expireAccessTokens();
    const job = await sync(connectionId);
    expect(job.status).toBe('failed');
    const attempts = await fx.server.hosted.cloudDb.all<{ failure: string }>('SELECT failure FROM sync_attempts WHERE job_id = ?', [job.jobId]);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.failure).toMatch(/connected again/);
    await destination.drop();
  });

  it('a source check after a renewal starts from the renewed tokens: a rotated refresh token is never sent twice', async () => {
    const { call } = await plainPublicApi(fx);
    const post = (path: string, json: unknown) => call('post', path, json);
    const { workspaceId } = await post('v1/workspaces', { name: `checked-twice-${backend}` });
    const credentials = await grantedCredentials(fx.chatSandbox, 'users:read');
    const { sourceId } = await post('v1/sources', { name: 'chat', workspaceId, configuration: { sourceType: 'chat', credentials } });
    const refusedBefore = refusals();
    const grantsBefore = refreshGrants();
    for (let round = 0; round < 3; round++) {
      fx.chatSandbox.expireAccessTokens();
      expect(await post('api/v1/sources/check_connection', { sourceId })).toMatchObject({ status: 'succeeded' });
    }
    expect(refreshGrants() - grantsBefore).toBe(3);
    expect(refusals()).toBe(refusedBefore);
  });
});
