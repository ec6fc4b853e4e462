/**
 * Tokens stay alive through long work: with access tokens living 2 s, a replication and a sync of
 * more than 20,000 records each run for over ten token lifetimes and complete, and the sandbox's
 * count of refresh grants is exactly what the server kept. Figures are printed, never asserted on
 * time beyond the run lasting long enough to prove the point.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialKeys } from '../core/hosted/oauth/oauth-tokens.ts';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { grantedCredentials } from './helpers/oauth-grants.ts';
import { plainPublicApi } from './helpers/public-api-calls.ts';
import { testDestination } from './helpers/sync-destinations.ts';

const TOKEN_TTL_SECONDS = 2;
const LONGER_THAN_MS = 10 * TOKEN_TTL_SECONDS * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OAuth tokens living 2 s, through long runs (sqlite)', () => {
  let fx: HostedFixture;

  beforeAll(async () => {
    // 20 channels of 1,100 messages, and API calls slowed (as over a real network) so each run lasts.
    fx = await startHostedFixture('sqlite', { chat: { tokenTtlSeconds: TOKEN_TTL_SECONDS, users: 40, channels: 20, messagesPerChannel: 1100 } });
  }, 120_000);
  afterAll(() => fx?.close());

  const refreshGrants = () => fx.chatSandbox.oauthStats().grants.refresh_token;
  const keptRefreshes = async (key: string) => {
    const row = await fx.server.hosted.cloudDb.get<{ refresh_count: number }>('SELECT refresh_count FROM oauth_tokens WHERE credential_key = ?', [key]);
    return Number(row?.refresh_count ?? 0);
  };

  it('replicates over 20,000 records while the token is renewed every second', async () => {
    const token = await fx.scopedToken('long-replication');
    const credentials = await grantedCredentials(fx.chatSandbox, 'channels:history');
    // Replication reads threads one by one: thousands of calls, many at once.
    fx.chatSandbox.latencyMs = 150;
    const grantsBefore = refreshGrants();
    const started = Date.now();
    const created = await fx.http.post('v1/integrations/connectors', {
      headers: bearer(token),
      json: {
        external_user_id: 'long-replication',
        connector_type: 'chat',
        credentials,
        replication_config: { start_date: '2000-01-01T00:00:00Z', lookback_window: 7, join_channels: true },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = JSON.parse(created.body) as { id: string };
    let state: { status: string; error: string | null; entities: Record<string, { records: number }> } | undefined;
    for (let polls = 0; polls < 1800; polls++) {
      state = JSON.parse((await fx.http.get(`api/v1/connectors/sources/${id}/replication`, { headers: bearer(token) })).body);
      if (state!.status === 'ready' || state!.status === 'failed') break;
      await sleep(100);
    }
    const elapsed = Date.now() - started;
    const records = Object.values(state!.entities).reduce((sum, entity) => sum + entity.records, 0);
    const refreshes = refreshGrants() - grantsBefore;
    console.log(
      `replication: ${fx.chatSandbox.requests.length} requests so far, ${records} records in ${(elapsed / 1000).toFixed(1)} s, ${refreshes} refresh grants`,
    );
    expect(state!.status, state!.error ?? '').toBe('ready');
    expect(records).toBeGreaterThanOrEqual(20_000);
    expect(elapsed).toBeGreaterThan(LONGER_THAN_MS);
    expect(refreshes).toBeGreaterThanOrEqual(10);
    expect(await keptRefreshes(credentialKeys.connector(id))).toBe(refreshes);
    expect(fx.chatSandbox.oauthStats().refused).toEqual({});
  }, 300_000);

  it('syncs over 20,000 records through the public API while the token is renewed', async () => {
    const { call, sync } = await plainPublicApi(fx);
    const { workspaceId } = await call('post', 'v1/workspaces', { name: 'long-sync' });
    const credentials = await grantedCredentials(fx.chatSandbox, 'channels:history');
    const { sourceId } = await call('post', 'v1/sources', {
      name: 'chat with a 2 s token',
      workspaceId,
      configuration: { sourceType: 'chat', credentials, start_date: '2000-01-01T00:00:00Z', lookback_window: 7, join_channels: true },
    });
    const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
    const { destinationId } = await call('post', 'v1/destinations', { name: 'sqlite', workspaceId, configuration: destination.configuration });
    const { connectionId } = await call('post', 'v1/connections', {
      sourceId,
      destinationId,
      prefix: 'chat_',
      configurations: { streams: [{ name: 'channel_messages', syncMode: 'full_refresh_overwrite' }] },
    });
    // A sync reads pages of a thousand messages: a few dozen calls, one after the other.
    fx.chatSandbox.latencyMs = 400;
    const grantsBefore = refreshGrants();
    const keptBefore = await keptRefreshes(credentialKeys.source(sourceId));
    const started = Date.now();
    const job = await sync(connectionId, 100);
    const elapsed = Date.now() - started;
    const refreshes = refreshGrants() - grantsBefore;
    const rows = (await destination.rows('chat_channel_messages')).length;
    console.log(`sync: ${fx.chatSandbox.requests.length} requests so far, ${rows} rows in ${(elapsed / 1000).toFixed(1)} s, ${refreshes} refresh grants`);
    expect(job.status).toBe('succeeded');
    expect(rows).toBeGreaterThanOrEqual(20_000);
    expect(elapsed).toBeGreaterThan(LONGER_THAN_MS);
    expect(refreshes).toBeGreaterThanOrEqual(10);
    expect((await keptRefreshes(credentialKeys.source(sourceId))) - keptBefore).toBe(refreshes);
    expect(fx.chatSandbox.oauthStats().refused).toEqual({});
    await destination.drop();
  }, 400_000);
});
