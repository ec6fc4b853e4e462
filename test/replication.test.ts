import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlContextStore } from '../core/hosted/context-store/sql-context-store.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

interface ReplicationBody {
  status: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  entities: Record<string, { status: string; records: number; synced_at: string | null }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('replication into the context store (%s)', (backend) => {
  let fixture: HostedFixture;
  let token: string;

  beforeAll(async () => {
    fixture = await startHostedFixture(backend);
    token = await fixture.scopedToken('replication-user');
  }, 60_000);
  afterAll(() => fixture?.close());

  const replication = (id: string, method: 'get' | 'post' = 'get', scoped = token) =>
    fixture.http[method](`api/v1/connectors/sources/${id}/replication`, { headers: bearer(scoped) });
  const search = (id: string, entity: string, params: Record<string, unknown>, action = 'search') =>
    fixture.http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(token), json: { entity, action, params } });
  const createChat = async (replicationConfig?: Record<string, unknown>, user = `u-${Math.random().toString(36).slice(2)}`) => {
    const response = await fixture.http.post('v1/integrations/connectors', {
      headers: bearer(token),
      json: {
        external_user_id: user,
        connector_type: 'chat',
        credentials: { token: CHAT_TOKEN },
        ...(replicationConfig ? { replication_config: replicationConfig } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (JSON.parse(response.body) as { id: string }).id;
  };
  const untilSettled = async (id: string): Promise<ReplicationBody> => {
    for (let i = 0; i < 200; i++) {
      const body = JSON.parse((await replication(id)).body) as ReplicationBody;
      if (body.status === 'ready' || body.status === 'failed') return body;
      await sleep(100);
    }
    throw new Error('replication did not settle');
  };
  const replicationEvents = (id: string) =>
    fixture.logs.map((line) => JSON.parse(line) as { event?: string; connector_id?: string }).filter((entry) => entry.connector_id === id);
  /** Whether any record of the connector is still in the context store. */
  const recordsLeft = async (id: string) =>
    (await (fixture.server.hosted.contextStore as SqlContextStore).driver.get(
      'SELECT 1 AS one FROM context_records r JOIN context_stores s ON s.store_key = r.store_key WHERE s.connector_id = ?',
      [id],
    )) !== undefined;
  /** Waits (up to 10 s) for the connector's run to log `event`. */
  const untilLogged = async (id: string, event: string) => {
    for (let i = 0; i < 500 && !replicationEvents(id).some((entry) => entry.event === event); i++) await sleep(20);
  };

  it('replicates a new chat connector at once and searches users, channels, messages and threads', async () => {
    const id = await createChat({ start_date: '2000-01-01T00:00:00Z', lookback_window: 7, join_channels: false });
    const state = await untilSettled(id);
    expect(state.status, state.error ?? '').toBe('ready');
    expect(state.started_at).not.toBeNull();
    expect(Object.keys(state.entities)).toEqual(['channel_messages', 'channels', 'threads', 'users']);
    for (const entity of Object.values(state.entities)) {
      expect(entity.status).toBe('ready');
      expect(entity.records).toBeGreaterThan(0);
      expect(entity.synced_at).not.toBeNull();
    }
    const users = fixture.chatSandbox.data.users;
    expect(state.entities.users!.records).toBe(users.length);

    const humans = JSON.parse((await search(id, 'users', { query: { filter: { eq: { is_bot: false } }, sort: [{ name: 'asc' }] }, limit: 5 })).body);
    expect(humans.status).toBe('success');
    expect(humans.result.hits).toHaveLength(5);
    expect(humans.result.hits.every((hit: { data: { is_bot: boolean }; score: number }) => !hit.data.is_bot && hit.score === 1)).toBe(true);
    expect(typeof humans.result.next_cursor).toBe('string');

    const general = JSON.parse((await search(id, 'channels', { query: { filter: { like: { name: 'gener' } } } }, 'context_store_search')).body);
    expect(general.result.hits.map((hit: { data: { name: string } }) => hit.data.name)).toContain('general');

    const messages = JSON.parse((await search(id, 'channel_messages', { query: { filter: { eq: { subtype: 'channel_join' } } }, limit: 3 })).body);
    expect(messages.result.hits.length).toBeGreaterThan(0);
    expect(messages.result.hits[0].id).toMatch(/^[CDG][A-Z0-9]+:\d+\.\d+$/);
    const threads = JSON.parse((await search(id, 'threads', { query: { filter: { gt: { reply_count: 0 } } }, limit: 3 })).body);
    expect(threads.status).toBe('success');
  });

  it('answers 409 context_store_not_ready with Retry-After before the first replication finished', async () => {
    fixture.chatSandbox.addFault({ method: 'users.list', status: 200, error: 'internal_error', count: 4 });
    const id = await createChat();
    const response = await search(id, 'users', { query: {} });
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body).error_code).toBe('context_store_not_ready');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    const state = await untilSettled(id);
    expect(state.status).toBe('failed');
    expect(state.error).toBeTruthy();
    expect(JSON.stringify(state)).not.toContain(CHAT_TOKEN);
    expect(state.entities.users!.status).toBe('failed');
  });

  it('refreshes on demand (202), without a second run while one runs, and drops users gone upstream', async () => {
    const id = await createChat();
    await untilSettled(id);
    const before = (await untilSettled(id)).entities.users!.records;
    const started = await replication(id, 'post');
    expect(started.statusCode).toBe(202);
    const again = await replication(id, 'post');
    expect(again.statusCode).toBe(202);
    const after = await untilSettled(id);
    expect(after.status).toBe('ready');
    expect(after.entities.users!.records).toBe(before);
  });

  it('slows down on rate limits instead of failing', async () => {
    fixture.chatSandbox.addFault({ method: 'conversations.list', status: 429, retryAfter: 1, count: 5 });
    const id = await createChat();
    const state = await untilSettled(id);
    expect(state.status, state.error ?? '').toBe('ready');
  });

  it('joins public channels the bot is not in when join_channels is true', async () => {
    const without = await createChat({ start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: false });
    const withoutState = await untilSettled(without);
    const joined = await createChat({ start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: true });
    const joinedState = await untilSettled(joined);
    expect(joinedState.status).toBe('ready');
    expect(joinedState.entities.channel_messages!.records).toBeGreaterThan(withoutState.entities.channel_messages!.records);
  });

  it('deletes the replicated records with the connector', async () => {
    const id = await createChat();
    await untilSettled(id);
    const deleted = await fixture.http.delete(`api/v1/integrations/connectors/${id}`, { headers: bearer(token) });
    expect(deleted.statusCode).toBe(204);
    expect(await fixture.server.hosted.contextStore.entityStates(id)).toEqual({});
    expect(await recordsLeft(id)).toBe(false);
  });

  it('stops a replication under way when its connector is deleted, and keeps nothing it read', async () => {
    // Its first call is rate limited for three seconds: the run is still under way when its connector goes.
    fixture.chatSandbox.addFault({ method: 'users.list', status: 429, retryAfter: 3, count: 1 });
    const id = await createChat();
    await untilLogged(id, 'replication_started');
    expect((await fixture.http.delete(`api/v1/integrations/connectors/${id}`, { headers: bearer(token) })).statusCode).toBe(204);
    // It ends at its next call (the one rate limited returns first), cancelled, and never finishes or fails later.
    await untilLogged(id, 'replication_cancelled');
    expect(replicationEvents(id).map((entry) => entry.event)).toEqual(['replication_started', 'replication_cancelled']);
    expect(await fixture.server.hosted.contextStore.entityStates(id)).toEqual({});
    await fixture.server.hosted.replicationScheduler.idle();
    expect(replicationEvents(id).map((entry) => entry.event)).toEqual(['replication_started', 'replication_cancelled']);
  });

  it('keeps nothing a replication read after another instance deleted its connector', async () => {
    fixture.chatSandbox.addFault({ method: 'users.list', status: 429, retryAfter: 3, count: 1 });
    const id = await createChat();
    await untilLogged(id, 'replication_started');
    // What another instance's delete does to the shared store: the connector's records and job go, and
    // this instance, not told, writes on once the rate limit lets it.
    await fixture.server.hosted.contextStore.deleteConnector(id);
    await untilLogged(id, 'replication_cancelled');
    await fixture.server.hosted.replicationScheduler.idle();
    expect(replicationEvents(id).map((entry) => entry.event)).toEqual(['replication_started', 'replication_cancelled']);
    expect(await fixture.server.hosted.contextStore.entityStates(id)).toEqual({});
    expect(await recordsLeft(id)).toBe(false);
  });

  it('replicates file-storage and searches files', async () => {
    const user = `files-${Math.random().toString(36).slice(2)}`;
    const created = await fixture.createConnector(user, 'file-storage', { access_token: DRIVE_TOKEN }, token);
    const state = await untilSettled(created.id);
    expect(state.status, state.error ?? '').toBe('ready');
    const found = JSON.parse((await search(created.id, 'files', { query: { filter: { eq: { trashed: false } }, sort: [{ size: 'desc' }] }, limit: 3 })).body);
    expect(found.result.hits.length).toBeGreaterThan(0);
    const sizes = found.result.hits.map((hit: { data: { size: number | null } }) => hit.data.size);
    expect(sizes.filter((size: number | null) => size !== null)).toEqual([...sizes.filter((size: number | null) => size !== null)].sort((a, b) => b - a));
  });

  it('refuses bad searches with a 422 pointing into the query', async () => {
    const id = await createChat();
    await untilSettled(id);
    const response = await search(id, 'users', { query: { filter: { eq: { no_such_field: 1 } } } });
    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body).detail[0].loc).toEqual(['body', 'params', 'query', 'filter', 'eq', 'no_such_field']);
    const unknownOperator = await search(id, 'users', { query: { filter: { near: { tz: 'UTC' } } } });
    expect(JSON.parse(unknownOperator.body).detail[0].loc).toEqual(['body', 'params', 'query', 'filter', 'near']);
    const tooMany = await search(id, 'users', { query: {}, limit: 1001 });
    expect(tooMany.statusCode).toBe(422);
  });

  it.runIf(backend === 'postgres')('runs each connector on one instance at a time when several share PostgreSQL', async () => {
    const other = await fixture.startAnotherServer();
    const id = await createChat();
    await untilSettled(id);
    // Both instances asked for a refresh at once: the lease lets one of them run it.
    const otherHttp = fixture.http.extend({ prefixUrl: other.url });
    await Promise.all([replication(id, 'post'), otherHttp.post(`api/v1/connectors/sources/${id}/replication`, { headers: bearer(token) })]);
    await sleep(300);
    await untilSettled(id);
    await Promise.all([fixture.server.hosted.replicationScheduler.idle(), other.hosted.replicationScheduler.idle()]);
    const events = fixture.logs
      .map((line) => JSON.parse(line) as { event?: string; connector_id?: string; time: number })
      .filter((entry) => entry.connector_id === id && (entry.event === 'replication_started' || entry.event === 'replication_finished'));
    // Started and finished alternate: never two runs of the connector at once, whichever instance ran them.
    expect(events.length).toBeGreaterThanOrEqual(4);
    for (const [index, entry] of events.entries()) expect(entry.event).toBe(index % 2 === 0 ? 'replication_started' : 'replication_finished');
  });
});

describe('replication schedule', () => {
  it('refreshes every PLUGBOARD_REPLICATION_INTERVAL seconds', async () => {
    const fixture = await startHostedFixture('sqlite', { config: { replicationIntervalSeconds: 1 } });
    try {
      const token = await fixture.scopedToken('schedule');
      const created = await fixture.createConnector('schedule-user', 'chat', { token: CHAT_TOKEN }, token);
      const finishedAt = async () =>
        JSON.parse((await fixture.http.get(`api/v1/connectors/sources/${created.id}/replication`, { headers: bearer(token) })).body).finished_at as
          | string
          | null;
      let first: string | null = null;
      for (let i = 0; i < 100 && !first; i++, await sleep(100)) first = await finishedAt();
      expect(first).not.toBeNull();
      let later: string | null = first;
      for (let i = 0; i < 100 && later === first; i++, await sleep(100)) later = await finishedAt();
      expect(Date.parse(later!)).toBeGreaterThan(Date.parse(first!));
    } finally {
      await fixture.close();
    }
  });
});
