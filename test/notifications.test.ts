import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '../core/hosted/notifications/notification-settings.ts';
import { verifyWebhook } from '../core/hosted/notifications/standard-webhooks.ts';
import { WORKSPACE_EVENTS } from '../core/hosted/notifications/workspace-messages.ts';
import { BACKENDS, bearer, type HostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';
import type { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { type NotifiedWorkspace, recordedAnswersConform, startNotifiedWorkspace } from './helpers/notified-workspace.ts';

/**
 * A workspace's notifications end to end: its `notifications` settings send Airbyte's webhooks for
 * each event (a sync's success and failure with the summary, the warning and the auto-disable with
 * lowered thresholds, schema changes), signed the Standard Webhooks way once a secret was made, and
 * every delivery is in the workspace's log. URLs are masked in answers and never logged.
 */

/** Airbyte's thresholds lowered: warned at the second failure in a row, disabled at the third. */
const SETTINGS: NotificationSettings = {
  ...DEFAULT_NOTIFICATION_SETTINGS,
  autoDisable: { failedJobs: 3, days: 0, warningFailedJobs: 2, warningDays: 0 },
  retryDelaysMs: [100, 200, 300],
  timeoutMs: 1000,
  pollMs: 100,
};

/** The keys of Airbyte's SyncSummary, in its getter order. */
const SUMMARY_KEYS = [
  'workspace',
  'connection',
  'source',
  'destination',
  'jobId',
  'success',
  'startedAt',
  'finishedAt',
  'bytesEmitted',
  'bytesCommitted',
  'recordsEmitted',
  'recordsCommitted',
  'recordsFilteredOut',
  'bytesFilteredOut',
  'errorMessage',
  'errorType',
  'errorOrigin',
  'durationInSeconds',
  'durationFormatted',
  'bytesEmittedFormatted',
  'bytesCommittedFormatted',
];

describe.each(BACKENDS)('workspace notifications on %s', (backend) => {
  let nw: NotifiedWorkspace;
  let fx: HostedFixture;
  let receiver: WebhookReceiver;
  let api: NotifiedWorkspace['api'];
  let workspaceId: string;
  let sourceId: string;
  const connection = () => nw.connection('users to db', [{ name: 'users', syncMode: 'full_refresh_overwrite' }]);
  const settled = (deliveryId: string) => nw.settled(deliveryId);

  beforeAll(async () => {
    nw = await startNotifiedWorkspace(backend, SETTINGS, {
      name: 'notified',
      // Every event's webhook on, each to a path of its own.
      notifications: (hooks) => Object.fromEntries(WORKSPACE_EVENTS.map((event) => [event, { webhook: { enabled: true, url: hooks.url(`/hooks/${event}`) } }])),
    });
    ({ fx, receiver, api, workspaceId, sourceId } = nw);
  }, 120_000);
  afterAll(() => nw?.close());

  it('answers the settings with each webhook URL masked past its host, and takes the mask back as the stored URL', async () => {
    const workspace = await api.call('get', `v1/workspaces/${workspaceId}`);
    expect(workspace.notifications.failure).toEqual({ webhook: { enabled: true, url: `${receiver.origin}/**********` } });
    expect(JSON.stringify(workspace)).not.toContain('/hooks/');
    // A client writing back what it read keeps the URLs.
    const rewritten = await api.call('patch', `v1/workspaces/${workspaceId}`, { notifications: workspace.notifications });
    expect(rewritten.notifications).toEqual(workspace.notifications);
    const stored = await fx.server.hosted.store.getWorkspace(workspaceId);
    expect((stored!.notifications as Record<string, { webhook: { url: string } }>).failure!.webhook.url).toBe(receiver.url('/hooks/failure'));
  });

  it("a sync's success sends Airbyte's success body: text, blocks and the sync summary", async () => {
    const connectionId = await connection();
    const job = await api.sync(connectionId);
    expect(job.status).toBe('succeeded');
    const [delivery] = await receiver.waitFor('/hooks/success');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Number(delivery!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    // No secret made yet: unsigned, as Airbyte's.
    expect(delivery!.headers['webhook-signature']).toBeUndefined();
    const body = delivery!.json;
    expect(Object.keys(body)).toEqual(['text', 'blocks', 'data']);
    expect(Object.keys(body.data)).toEqual(SUMMARY_KEYS);
    expect(body.data).toMatchObject({
      workspace: { id: workspaceId, name: 'notified', url: `http://plugboard.test/workspaces/${workspaceId}` },
      connection: { id: connectionId, name: 'users to db', url: `http://plugboard.test/workspaces/${workspaceId}/connections/${connectionId}` },
      source: { id: sourceId, name: 'team slack', url: `http://plugboard.test/workspaces/${workspaceId}/source/${sourceId}` },
      jobId: job.jobId,
      success: true,
      errorMessage: null,
      errorType: null,
      errorOrigin: null,
      recordsCommitted: fx.chatSandbox.data.users.length,
    });
    expect(body.data.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(body.text).toBe(
      `Your connection users to db from team slack to db succeeded\nThis was for null\n\nYou can access its logs here: ${body.data.connection.url}\n\nJob ID: ${job.jobId}`,
    );
    expect(body.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: `Sync completed: <${body.data.connection.url}|users to db>` } });
    expect(body.blocks.at(-1).text.text).toBe(
      `*Sync Summary:*\n${body.data.recordsEmitted} record(s) extracted / ${body.data.recordsCommitted} record(s) loaded\n${body.data.bytesEmittedFormatted} extracted / ${body.data.bytesCommittedFormatted} loaded\n`,
    );
    expect(await settled(String(delivery!.headers['webhook-id']))).toMatchObject({
      event: 'success',
      url: `${receiver.origin}/**********`,
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      connectionId,
      jobId: job.jobId,
    });
  });

  it('failures send failure bodies, a single warning at the second in a row, and disable the connection at the third', async () => {
    const connectionId = await connection();
    const failed: number[] = [];
    for (let i = 0; i < 3; i++) {
      // Every attempt of the job refused by the workspace (three attempts).
      fx.chatSandbox.addFault({ method: 'users.list', status: 200, error: 'invalid_auth', count: 3 });
      const job = await api.sync(connectionId);
      expect(job.status).toBe('failed');
      failed.push(job.jobId);
    }
    const failures = (await receiver.waitFor('/hooks/failure', 3)).filter((request) => failed.includes(request.json.data.jobId));
    expect(failures.map((request) => request.json.data.jobId)).toEqual(failed);
    const failure = failures[0]!.json;
    expect(failure.data).toMatchObject({ success: false, errorType: 'system_error', errorOrigin: null });
    expect(failure.data.errorMessage).toEqual(expect.any(String));
    expect(failure.text).toMatch(/^Your connection users to db from team slack to db just failed\.\.\.\nThis happened with /);
    expect(failure.blocks[2].text.text).toMatch(/^\*Failure reason:\*\n\n```\n\[system_error\] /);

    const [warning] = await receiver.waitFor('/hooks/syncDisabledWarning');
    expect(Object.keys(warning!.json)).toEqual(['text', 'blocks']);
    expect(warning!.json.blocks[0].text.text).toMatch(/^Warning - repeated connection failures: </);
    expect(warning!.json.blocks[1].text.text).toBe(
      'Your connection has been repeatedly failing. Please address any issues to ensure your syncs continue to run.\n',
    );
    const [disabled] = await receiver.waitFor('/hooks/syncDisabled');
    expect(disabled!.json.blocks[0].text.text).toMatch(/^Connection disabled: </);
    expect(disabled!.json.text).toContain('failed 3 times consecutively and has not succeeded in 0 days');
    expect((await api.call('get', `v1/connections/${connectionId}`)).status).toBe('inactive');
    // Once each: the warning at the second failure, the disable at the third.
    expect(receiver.to('/hooks/syncDisabledWarning')).toHaveLength(1);
    expect(receiver.to('/hooks/syncDisabled')).toHaveLength(1);
    const log = await api.call('get', `v1/workspaces/${workspaceId}/notifications/deliveries?limit=100`);
    const about = log.data.filter((entry: { connectionId?: string }) => entry.connectionId === connectionId);
    expect(about.map((entry: { event: string; jobId: number }) => `${entry.event} ${entry.jobId}`).sort()).toEqual(
      [`failure ${failed[0]}`, `failure ${failed[1]}`, `syncDisabledWarning ${failed[1]}`, `failure ${failed[2]}`, `syncDisabled ${failed[2]}`].sort(),
    );
  }, 120_000);

  it('a secret, once made, signs every delivery; a rotation signs with both for a day', async () => {
    const first = await api.call('post', `v1/workspaces/${workspaceId}/notifications/secret`);
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.previousValidUntil).toBeUndefined();
    const sent = await api.call('post', `v1/workspaces/${workspaceId}/notifications/test`, { event: 'failure' });
    expect(sent).toMatchObject({ event: 'failure', status: 'pending', url: `${receiver.origin}/**********` });
    const [signed] = await receiver.attemptsOf(sent.deliveryId);
    expect(verifyWebhook(first.secret, signed!.headers, signed!.body)).toBe(true);
    expect(verifyWebhook(first.secret, signed!.headers, `${signed!.body} `)).toBe(false);
    expect(signed!.json.blocks[0].text.text).toMatch(/^\[THIS IS A TEST NOTIFICATION\] Sync failure occurred: /);

    const second = await api.call('post', `v1/workspaces/${workspaceId}/notifications/secret`);
    expect(second.secret).not.toBe(first.secret);
    expect(Date.parse(second.previousValidUntil) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const again = await api.call('post', `v1/workspaces/${workspaceId}/notifications/test`, { event: 'success' });
    const [both] = await receiver.attemptsOf(again.deliveryId);
    expect(String(both!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(second.secret, both!.headers, both!.body)).toBe(true);
    expect(verifyWebhook(first.secret, both!.headers, both!.body)).toBe(true);
    // Answered once: nothing else the server says or logs holds either secret.
    const log = JSON.stringify(await api.call('get', `v1/workspaces/${workspaceId}/notifications/deliveries`));
    for (const secret of [first.secret, second.secret]) {
      expect(log).not.toContain(secret);
      expect(fx.logs.join('\n')).not.toContain(secret);
    }
  });

  it('a test send needs a webhook switched on for the event; an unknown workspace is not found', async () => {
    const plain = (await api.call('post', 'v1/workspaces', { name: 'quiet' })).workspaceId;
    const refused = await fx.http.post(`v1/workspaces/${plain}/notifications/test`, {
      headers: bearer(await publicAccessToken(fx)),
      json: { event: 'failure' },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'urn:plugboard:error:notification_not_configured' });
    const unknown = await fx.http.get('v1/workspaces/00000000-0000-4000-8000-000000000000/notifications/deliveries', {
      headers: bearer(await publicAccessToken(fx)),
    });
    expect(unknown.statusCode).toBe(404);
  });

  // Last: it reads every answer the tests above got.
  it('answered as /openapi.json declares, every workspace notifications operation with a 2xx at least once', () =>
    recordedAnswersConform(fx, nw.answers, '/notifications/'));
});
