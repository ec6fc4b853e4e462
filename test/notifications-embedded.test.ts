import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../core/hosted/notifications/notification-settings.ts';
import { verifyWebhook } from '../core/hosted/notifications/standard-webhooks.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { grantedCredentials } from './helpers/oauth-grants.ts';
import { type Answer, recordAnswer } from './helpers/hosted-openapi.ts';
import { recordedAnswersConform } from './helpers/notified-workspace.ts';
import { type ReceivedWebhook, WebhookReceiver } from './helpers/webhook-receiver.ts';

/**
 * The organization webhook of the embedded side, set by an operator: a source created, updated,
 * found needing to be connected again, deleted; its replication ready and failed (each change told
 * once, not every refresh); signed once a secret was made; its deliveries in the organization's log.
 */

const SETTINGS = { ...DEFAULT_NOTIFICATION_SETTINGS, retryDelaysMs: [100, 200], timeoutMs: 1000, pollMs: 100 };
const HOOK = '/org/hook';

describe.each(BACKENDS)('organization webhook on %s', (backend) => {
  let fx: HostedFixture;
  let receiver: WebhookReceiver;
  let operator: string;
  let scoped: string;
  const answers: Answer[] = [];

  const json = (response: { body: string }) => JSON.parse(response.body);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, token: string, body?: unknown) =>
    fx.http(path, { method, headers: bearer(token), ...(body === undefined ? {} : { json: body }) });
  /** The messages of one type about one source, once `count` of them arrived. */
  const told = async (type: string, sourceId: string, count = 1): Promise<ReceivedWebhook[]> => {
    const about = () => receiver.to(HOOK).filter((request) => request.json.type === type && request.json.data.source.id === sourceId);
    for (let i = 0; i < 300 && about().length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const heard = receiver.to(HOOK).filter((request) => request.json.data.source.id === sourceId);
    expect(
      about().length,
      `${type} of ${sourceId}; heard ${heard.map((request) => `${request.json.type} ${request.json.data.error ?? ''}`)}`,
    ).toBeGreaterThanOrEqual(count);
    return about();
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    fx = await startHostedFixture(backend, { config: { notifications: SETTINGS } });
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    operator = await fx.operatorToken();
    scoped = await fx.scopedToken('embedded-ws');
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
    await receiver?.close();
  });

  it('is set, read (masked past its host) and checked by an operator token only', async () => {
    const missing = await call('GET', 'api/v1/organizations/webhook', operator);
    expect([missing.statusCode, json(missing).error_code]).toEqual([404, 'webhook_not_set']);
    const set = await call('PUT', 'api/v1/organizations/webhook', operator, { url: receiver.url(HOOK) });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toEqual({ url: `${receiver.origin}/**********`, updated_at: expect.any(String) });
    expect(json(await call('GET', 'api/v1/organizations/webhook', operator))).toEqual(json(set));
    const invalid = await call('PUT', 'api/v1/organizations/webhook', operator, { url: 'ftp://files.example/in' });
    expect(invalid.statusCode).toBe(422);
    expect((await call('GET', 'api/v1/organizations/webhook', scoped)).statusCode).toBe(401);
  });

  it('tells a source created, its replication ready, updated and deleted, signed once a secret was made', async () => {
    const { secret } = json(await call('POST', 'api/v1/organizations/webhook/secret', operator));
    const template = json(await call('POST', 'api/v1/integrations/templates/sources', operator, { name: 'Team chat', connector_type: 'chat', tags: [] })).id;
    const created = await call('POST', 'api/v1/embedded/sources', scoped, { source_template_id: template, name: 'Chat', credentials: { token: CHAT_TOKEN } });
    expect(created.statusCode, created.body).toBe(201);
    const source = json(created);

    const [createdMessage] = await told('source.created', source.id);
    const body = createdMessage!.json;
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data', 'text', 'blocks']);
    expect(body.data).toEqual({
      source: {
        id: source.id,
        name: 'Chat',
        connector_type: 'chat',
        organization_id: source.organization_id ?? expect.any(String),
        workspace_id: source.workspace_id,
        external_user_id: source.external_user_id,
        source_template_id: template,
      },
    });
    expect(body.text).toBe('Source "Chat" (chat) was created.');
    expect(verifyWebhook(secret, createdMessage!.headers, createdMessage!.body)).toBe(true);
    expect(createdMessage!.body).not.toContain(CHAT_TOKEN);

    await told('replication.ready', source.id);
    const renamed = await call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, { name: 'Team chat' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [updated] = await told('source.updated', source.id);
    expect(updated!.json.data.source.name).toBe('Team chat');
    // Another refresh that succeeds again tells nothing new.
    await refresh(source.id);
    expect(await told('replication.ready', source.id)).toHaveLength(1);

    expect((await call('DELETE', `api/v1/integrations/connectors/${source.id}`, operator)).statusCode).toBe(204);
    const [deleted] = await told('source.deleted', source.id);
    expect(deleted!.json.data.source).toMatchObject({ id: source.id, name: 'Team chat' });

    const log = json(await call('GET', 'api/v1/organizations/webhook/deliveries?limit=100', operator));
    const events = log.data.filter((entry: { status: string }) => entry.status === 'delivered').map((entry: { event: string }) => entry.event);
    expect(events).toEqual(expect.arrayContaining(['source.created', 'replication.ready', 'source.updated', 'source.deleted']));
  });

  it('tells a source whose OAuth grant is gone, once', async () => {
    const credentials = await grantedCredentials(fx.chatSandbox, 'users:read');
    const created = await call('POST', 'v1/integrations/connectors', scoped, { external_user_id: 'revoked', connector_type: 'chat', credentials });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = json(created);
    fx.chatSandbox.revokeGrants();
    fx.chatSandbox.expireAccessTokens();
    const execute = () => call('POST', `api/v1/connectors/sources/${id}/execute`, scoped, { entity: 'users', action: 'list', params: { limit: 1 } });
    expect(json(await execute()).error_code).toBe('credentials_expired');
    expect(json(await execute()).error_code).toBe('credentials_expired');
    const [reauth] = await told('source.needs_reauth', id);
    expect(reauth!.json.text).toBe('Source "chat connector of revoked" (chat) must be connected again: its OAuth grant is gone (revoked or expired).');
    for (const secret of [credentials.access_token, credentials.refresh_token]) expect(reauth!.body).not.toContain(secret);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await told('source.needs_reauth', id)).toHaveLength(1);
  });

  it('tells a replication failing once, and ready again once it recovers', async () => {
    const { id } = await fx.createConnector('flaky', 'chat', { token: CHAT_TOKEN }, scoped);
    await told('replication.ready', id);
    fx.chatSandbox.addFault({ method: 'users.list', status: 200, error: 'invalid_auth', count: 1 });
    await refresh(id);
    const [failed] = await told('replication.failed', id);
    expect(failed!.json.data.error).toEqual(expect.any(String));
    expect(failed!.json.blocks.at(-1).text.text).toMatch(/^\*Error:\*\n```\n/);
    fx.chatSandbox.addFault({ method: 'users.list', status: 200, error: 'invalid_auth', count: 1 });
    await refresh(id);
    await refresh(id);
    await told('replication.ready', id, 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([(await told('replication.failed', id)).length, (await told('replication.ready', id, 2)).length]).toEqual([1, 2]);
  });

  it('sends a test; once removed, the webhook hears nothing more', async () => {
    const sent = json(await call('POST', 'api/v1/organizations/webhook/test', operator));
    expect(sent).toMatchObject({ event: 'webhook.test', status: 'pending', url: `${receiver.origin}/**********` });
    const [test] = await receiver.attemptsOf(sent.deliveryId);
    expect(test!.json.text).toBe('[THIS IS A TEST NOTIFICATION] Source "Source" (chat) is a sample: this is a test of the organization webhook.');

    expect((await call('DELETE', 'api/v1/organizations/webhook', operator)).statusCode).toBe(204);
    expect((await call('GET', 'api/v1/organizations/webhook', operator)).statusCode).toBe(404);
    expect((await call('POST', 'api/v1/organizations/webhook/test', operator)).statusCode).toBe(404);
    const before = receiver.to(HOOK).length;
    const quiet = await fx.createConnector('quiet', 'chat', { token: CHAT_TOKEN }, scoped);
    await waitForReplication(quiet.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.to(HOOK).length).toBe(before);
  });

  // Last: it reads every answer the tests above got.
  it('answered as /openapi.json declares, every organization webhook operation with a 2xx at least once', () =>
    recordedAnswersConform(fx, answers, '/organizations/webhook'));

  /** Asks for a refresh now and waits for it to end. */
  async function refresh(id: string): Promise<void> {
    expect((await call('POST', `api/v1/connectors/sources/${id}/replication`, scoped)).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitForReplication(id);
  }

  /** Until the connector's replication is no longer running. */
  async function waitForReplication(id: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const state = json(await call('GET', `api/v1/connectors/sources/${id}/replication`, scoped));
      if (state.status === 'ready' || state.status === 'failed') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`replication of ${id} did not end`);
  }
});
