import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '../core/hosted/notifications/notification-settings.ts';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import { BACKENDS, bearer, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type NotifiedWorkspace, startNotifiedWorkspace } from './helpers/notified-workspace.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';
import type { ReceivedWebhook, WebhookReceiver } from './helpers/webhook-receiver.ts';

/**
 * How deliveries go: retried after a 500 or a timeout with the same webhook-id until a 2xx, given up
 * on a 410 or once the schedule is used up, Slack-formatted for a Slack incoming webhook, schema
 * changes told as connectionUpdate or connectionUpdateActionRequired, and the egress policy applied
 * to webhook URLs when they are set and when they are sent to.
 */

const SETTINGS: NotificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS, retryDelaysMs: [100, 200, 300], timeoutMs: 1000, pollMs: 100 };
const SLACK_PATH = '/services/T0000TEST/B0000TEST/xoxsecretpath0123456789';

/** Block Kit's limits, as Slack's incoming webhooks enforce them. */
function slackProblems(body: { text?: unknown; blocks?: unknown }): string[] {
  const problems: string[] = [];
  if (typeof body.text !== 'string' || body.text === '') problems.push('text must be a non-empty string');
  const blocks = body.blocks as Array<Record<string, any>>;
  if (!Array.isArray(blocks) || blocks.length > 50) problems.push('blocks must be an array of at most 50');
  for (const [i, block] of (blocks ?? []).entries()) {
    if (block.type === 'divider') continue;
    if (block.type !== 'section') problems.push(`block ${i}: unknown type ${block.type}`);
    if (!block.text && !block.fields) problems.push(`block ${i}: a section needs text or fields`);
    if (block.text && (block.text.type !== 'mrkdwn' || block.text.text.length > 3000)) problems.push(`block ${i}: text over 3000 or not mrkdwn`);
    if (block.fields && (block.fields.length > 10 || block.fields.some((field: { text: string }) => field.text.length > 2000))) {
      problems.push(`block ${i}: more than 10 fields or a field over 2000`);
    }
  }
  return problems;
}

describe.each(BACKENDS)('notification delivery on %s', (backend) => {
  let nw: NotifiedWorkspace;
  let fx: HostedFixture;
  let receiver: WebhookReceiver;
  let api: NotifiedWorkspace['api'];
  let workspaceId: string;

  const webhook = (path: string) => ({ webhook: { enabled: true, url: receiver.url(path) } });
  const setWebhooks = (notifications: Record<string, unknown>) => api.call('patch', `v1/workspaces/${workspaceId}`, { notifications });
  const sendTest = async (event: string) => (await api.call('post', `v1/workspaces/${workspaceId}/notifications/test`, { event })).deliveryId as string;
  const settled = (deliveryId: string) => nw.settled(deliveryId);
  const connection = (streams: Array<{ name: string; syncMode: string }>) => nw.connection('to db', streams);

  beforeAll(async () => {
    nw = await startNotifiedWorkspace(backend, SETTINGS, { name: 'deliveries' });
    ({ fx, receiver, api, workspaceId } = nw);
  }, 120_000);
  afterAll(() => nw?.close());

  it('a 500 is tried again with the same webhook-id and body until a 2xx; the log shows the attempts', async () => {
    await setWebhooks({ failure: webhook('/retry') });
    receiver.answer('/retry', { status: 500, body: 'boom' }, { status: 503, body: 'down' });
    const id = await sendTest('failure');
    const attempts = await receiver.attemptsOf(id, 3);
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
    expect(await settled(id)).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
  });

  it('an attempt without an answer in time is tried again', async () => {
    receiver.answer('/retry', { delayMs: 2500 });
    const id = await sendTest('failure');
    const attempts = await receiver.attemptsOf(id, 2);
    expect(attempts.map((attempt) => attempt.headers['webhook-id'])).toEqual([id, id]);
    expect(await settled(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('is given up once the schedule is used up, and at once on a 410 Gone; the log says why', async () => {
    receiver.answer('/retry', ...Array(4).fill({ status: 500, body: 'still broken' }));
    const exhausted = await sendTest('failure');
    expect(await settled(exhausted)).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 500, lastError: 'HTTP 500: still broken' });
    expect(receiver.received.filter((request) => request.headers['webhook-id'] === exhausted)).toHaveLength(4);

    receiver.answer('/retry', { status: 410, body: 'gone' });
    const gone = await sendTest('failure');
    const entry = await settled(gone);
    expect(entry).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
    expect(entry.nextAttemptAt).toBeUndefined();
    const failedOnly = await api.call('get', `v1/workspaces/${workspaceId}/notifications/deliveries?status=failed&limit=1`);
    expect(failedOnly.data.map((candidate: { deliveryId: string }) => candidate.deliveryId)).toEqual([gone]);
    expect(failedOnly.next).toContain('offset=1');
  });

  it('a Slack incoming webhook gets a message Slack takes; its URL is masked in answers and never logged', async () => {
    const connectionId = await connection([{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
    const settings = await setWebhooks({ failure: webhook(SLACK_PATH), success: webhook(SLACK_PATH) });
    expect(settings.notifications.failure.webhook.url).toBe(`${receiver.origin}/**********`);
    // A failure whose reason is longer than a Slack section takes.
    fx.chatSandbox.addFault({ method: 'users.list', status: 200, error: `too_long_${'x'.repeat(4000)}`, count: 3 });
    const job = await api.sync(connectionId);
    expect(job.status).toBe('failed');
    const [failure] = (await receiver.waitFor(SLACK_PATH)) as ReceivedWebhook[];
    expect(slackProblems(failure!.json)).toEqual([]);
    expect(failure!.json.data.errorMessage.length).toBeGreaterThan(4000);
    expect(failure!.json.blocks.map((block: { type: string }) => block.type)).toEqual(['section', 'section', 'section', 'section']);
    for (const event of ['success', 'failure']) {
      const id = await sendTest(event);
      const [sample] = await receiver.attemptsOf(id);
      expect(slackProblems(sample!.json), event).toEqual([]);
    }
    expect(fx.logs.join('\n')).not.toContain('xoxsecretpath');
    expect(JSON.stringify(await api.call('get', `v1/workspaces/${workspaceId}/notifications/deliveries?limit=100`))).not.toContain('xoxsecretpath');
  }, 120_000);

  it('schema changes of the source since the last job are told: a new stream as connectionUpdate, a moved key as connectionUpdateActionRequired', async () => {
    await setWebhooks({ connectionUpdate: webhook('/update'), connectionUpdateActionRequired: webhook('/action') });
    const connectionId = await connection([{ name: 'channel_messages', syncMode: 'incremental_deduped_history' }]);
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    const { cloudDb } = fx.server.hosted;
    /** The streams the connection last saw, once its last job's end was expanded (after the job, not with it). */
    const seen = async () => {
      for (let i = 0; i < 200; i++) {
        const row = await cloudDb.get<{ streams: string }>('SELECT streams FROM notification_catalogs WHERE connection_id = ?', [connectionId]);
        if (row) return JSON.parse(row.streams);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the connection never looked at its streams');
    };
    const streams: Array<{ name: string; primaryKey: string[] }> = await seen();
    expect(streams.map((stream) => stream.name)).toContain('users');
    // As if the source had no users stream when the connection last looked.
    await cloudDb.run('UPDATE notification_catalogs SET streams = ? WHERE connection_id = ?', [
      JSON.stringify(streams.filter((stream) => stream.name !== 'users')),
      connectionId,
    ]);
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    const [update] = await receiver.waitFor('/update');
    expect(Object.keys(update!.json)).toEqual(['text', 'blocks']);
    expect(update!.json.text).toMatch(/^The schema of '<http:\/\/plugboard\.test\/workspaces\/.+\|to db>' has changed\.$/);
    expect(update!.json.blocks.at(-1).text.text).toBe(' • Streams (+1/-0/~0)\n   ＋ users');
    expect(update!.json.blocks.map((block: { type: string }) => block.type)).toEqual(['section', 'section', 'divider', 'section']);

    // As if the messages' key had been another: the connection dedups on it, so it must act.
    await cloudDb.run('UPDATE notification_catalogs SET streams = ? WHERE connection_id = ?', [
      JSON.stringify((await seen()).map((stream: { name: string }) => (stream.name === 'channel_messages' ? { ...stream, primaryKey: ['name'] } : stream))),
      connectionId,
    ]);
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    const [action] = await receiver.waitFor('/action');
    expect(action!.json.text).toMatch(/^Plugboard detected schema changes for '<.+\|to db>'\.$/);
    expect(action!.json.blocks[1].text.text).toBe(
      "The upstream schema of 'to db' has changed. Please review and approve the changes to reflect them in your connection.",
    );
    expect(action!.json.blocks.at(-1).text.text).toBe(' • Streams (+0/-0/~1)\n   ～ channel_messages (primary key)');
    // Nothing changed since: the next job tells nothing.
    expect((await api.sync(connectionId)).status).toBe('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([receiver.to('/update').length, receiver.to('/action').length]).toEqual([1, 1]);
  }, 120_000);

  it('the egress policy refuses a loopback webhook URL where it is given, and at delivery', async () => {
    // This server lets the tests reach loopback; one with the default policy refuses it.
    const strict = await fx.startAnotherServer({ egress: new EgressPolicy() });
    const token = await publicAccessToken({ ...fx, http: fx.http.extend({ prefixUrl: strict.url }) });
    const patch = await fx.http.patch(`${strict.url}/v1/workspaces/${workspaceId}`, {
      prefixUrl: '',
      headers: bearer(token),
      json: { notifications: { failure: webhook('/refused') } },
    });
    expect(patch.statusCode).toBe(400);
    expect(JSON.parse(patch.body)).toMatchObject({ type: 'urn:plugboard:error:egress_refused' });
    expect(JSON.parse(patch.body).detail).toMatch(/^notifications\.failure\.webhook\.url: connections to 127\.0\.0\.1:\d+ are refused/);
    const organization = await fx.http.put(`${strict.url}/api/v1/organizations/webhook`, {
      prefixUrl: '',
      headers: bearer(token),
      json: { url: receiver.url('/org') },
    });
    expect([organization.statusCode, JSON.parse(organization.body).error_code]).toEqual([400, 'egress_refused']);

    // Set through the lenient server; sent by the strict one alone: refused as it connects, given up at once.
    await setWebhooks({ failure: webhook('/refused') });
    await fx.server.hosted.notifications.worker.stop();
    const sent = await fx.http.post(`${strict.url}/v1/workspaces/${workspaceId}/notifications/test`, {
      prefixUrl: '',
      headers: bearer(token),
      json: { event: 'failure' },
    });
    const entry = await settled(JSON.parse(sent.body).deliveryId);
    expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
    expect(entry.lastError).toMatch(/connections to 127\.0\.0\.1:\d+ are refused/);
    expect(receiver.to('/refused')).toEqual([]);
  });
});
