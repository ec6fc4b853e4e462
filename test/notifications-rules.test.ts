import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.ts';
import { autoDisableVerdict, failureHistory, type FailureHistory } from '../core/hosted/notifications/auto-disable.ts';
import { DEFAULT_AUTO_DISABLE, DEFAULT_RETRY_DELAYS_MS } from '../core/hosted/notifications/notification-settings.ts';
import { nextAttemptAt } from '../core/hosted/notifications/retry-policy.ts';
import { schemaChange, type StreamShape } from '../core/hosted/notifications/schema-watch.ts';
import { signWebhook, verifyWebhook, webhookHeaders } from '../core/hosted/notifications/standard-webhooks.ts';
import { formatDuration, formatVolume, syncSummary } from '../core/hosted/notifications/sync-summary.ts';
import { webhookBody } from '../core/hosted/notifications/webhook-channels.ts';
import { maskedUrl, WorkspaceWebhookSettings } from '../core/hosted/notifications/webhook-urls.ts';
import { jobMessage } from '../core/hosted/notifications/workspace-messages.ts';
import { migrateSync } from '../core/hosted/sync/migrate-sync.ts';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import { EgressRefusedError } from '../core/security/egress/egress-refused-error.ts';
import { SqliteDriver } from '../core/stores/sqlite-driver.ts';

/** The rules behind notifications, each alone: signatures, auto-disable, retries, schema changes, Airbyte's formats, URLs. */

const DAY = 24 * 3600 * 1000;

describe('Standard Webhooks signatures', () => {
  it("reproduce the spec's test vector and verify in constant time within the tolerance", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const headers = webhookHeaders([secret], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(verifyWebhook(secret, headers, body, 300, 1614265330_000 + 299_000)).toBe(true);
    expect(verifyWebhook(secret, headers, body, 300, 1614265330_000 + 301_000)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, 300, 1614265330_000)).toBe(false);
    expect(webhookHeaders([], 'msg_x', 1, body)).toEqual({ 'webhook-id': 'msg_x', 'webhook-timestamp': '1' });
  });
});

describe("Airbyte's auto-disable rule", () => {
  const at = (failures: number, days: number, priorDays?: number): FailureHistory => ({
    consecutiveFailures: failures,
    since: 0,
    now: days * DAY,
    ...(priorDays === undefined ? {} : { priorFailureAt: priorDays * DAY }),
  });

  it('disables only when both marks are reached: 30 failures in a row and 7 days without a success', () => {
    expect(autoDisableVerdict(at(30, 7, 6), DEFAULT_AUTO_DISABLE)).toBe('disable');
    expect(autoDisableVerdict(at(30, 6.99, 6), DEFAULT_AUTO_DISABLE)).toBe('none');
    expect(autoDisableVerdict(at(29, 100, 99), DEFAULT_AUTO_DISABLE)).toBe('none');
  });

  it('warns once, on the failure that first reaches 20 in a row and 4 days', () => {
    expect(autoDisableVerdict(at(20, 4, 3), DEFAULT_AUTO_DISABLE)).toBe('warn');
    expect(autoDisableVerdict(at(21, 4, 4), DEFAULT_AUTO_DISABLE)).toBe('none');
    // The days came after the count: the first failure past 4 days warns, the next does not.
    expect(autoDisableVerdict(at(25, 4.5, 3.9), DEFAULT_AUTO_DISABLE)).toBe('warn');
    expect(autoDisableVerdict(at(26, 5, 4.5), DEFAULT_AUTO_DISABLE)).toBe('none');
    expect(autoDisableVerdict(at(20, 4), DEFAULT_AUTO_DISABLE)).toBe('none');
  });

  describe('the history, from the sync jobs', () => {
    let dir: string;
    let db: SqliteDriver;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'plugboard-auto-disable-'));
      db = new SqliteDriver(dir, join(dir, 'cloud-api.db'));
      await migrateSync(db);
      const statuses = ['failed', 'succeeded', 'failed', 'cancelled', 'failed', 'failed', 'cancelled'];
      for (const [i, status] of statuses.entries()) {
        const created = new Date(i * DAY).toISOString();
        await db.run(
          `INSERT INTO sync_jobs (connection_id, workspace_id, job_type, status, created_at, updated_at, next_attempt_at) VALUES ('c', 'w', 'sync', ?, ?, ?, ?)`,
          [status, created, created, created],
        );
      }
    });
    afterAll(async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('counts failed jobs since the last success; cancelled ones neither count nor reset', async () => {
      // Jobs 1-7: failed, succeeded (day 1), failed, cancelled, failed, failed (day 5), cancelled.
      expect(await failureHistory(db, 'c', 6, 5.5 * DAY)).toEqual({ consecutiveFailures: 3, since: DAY, now: 5.5 * DAY, priorFailureAt: 4 * DAY });
      expect(await failureHistory(db, 'c', 1, DAY / 2)).toEqual({ consecutiveFailures: 1, since: 0, now: DAY / 2 });
    });
  });
});

describe('the retry schedule', () => {
  const none = () => 0;

  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, then gives up: eight attempts over more than a day', () => {
    const waits = DEFAULT_RETRY_DELAYS_MS.map((_, i) => nextAttemptAt(i + 1, { statusCode: 500 }, DEFAULT_RETRY_DELAYS_MS, 0, none));
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000]);
    expect(waits.reduce<number>((sum, wait) => sum + (wait ?? 0), 0)).toBeGreaterThan(DAY);
    expect(nextAttemptAt(8, { statusCode: 500 }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBeUndefined();
  });

  it('gives up at once on a 410 or an address the egress policy refuses; retries other 4xx; honours Retry-After up to the longest wait', () => {
    expect(nextAttemptAt(1, { statusCode: 410 }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBeUndefined();
    expect(nextAttemptAt(1, { refused: true }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBeUndefined();
    expect(nextAttemptAt(1, { statusCode: 401 }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBe(5_000);
    expect(nextAttemptAt(1, {}, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBe(5_000);
    expect(nextAttemptAt(1, { statusCode: 429, retryAfterMs: 60_000 }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBe(60_000);
    expect(nextAttemptAt(1, { statusCode: 429, retryAfterMs: 10 * DAY }, DEFAULT_RETRY_DELAYS_MS, 0, none)).toBe(50_400_000);
    // A tenth of jitter at most.
    expect(nextAttemptAt(1, { statusCode: 500 }, DEFAULT_RETRY_DELAYS_MS, 0, () => 0.999)).toBe(5_499);
  });
});

describe('schema changes', () => {
  const stream = (name: string, extra: Partial<StreamShape> = {}): StreamShape => ({
    name,
    primaryKey: ['id'],
    cursorField: 'updated',
    modes: ['full_refresh_overwrite', 'incremental_deduped_history'],
    ...extra,
  });
  const selected = [{ name: 'users', syncMode: 'incremental_deduped_history' }];

  it('a new stream, or one the connection does not sync going away, leaves its sync as it was', () => {
    expect(schemaChange([stream('users')], [stream('users'), stream('teams')], selected)).toEqual({
      event: 'connectionUpdate',
      diff: { added: ['teams'], removed: [], changed: [] },
    });
    expect(schemaChange([stream('users'), stream('teams')], [stream('users')], selected)?.event).toBe('connectionUpdate');
    expect(schemaChange([stream('users')], [stream('users')], selected)).toBeUndefined();
  });

  it('a synced stream gone, its mode no longer offered, or its key or cursor moved needs the user', () => {
    expect(schemaChange([stream('users')], [stream('teams')], selected)?.event).toBe('connectionUpdateActionRequired');
    expect(schemaChange([stream('users')], [stream('users', { modes: ['full_refresh_overwrite'] })], selected)).toEqual({
      event: 'connectionUpdateActionRequired',
      diff: { added: [], removed: [], changed: [{ name: 'users', what: ['sync modes'] }] },
    });
    expect(schemaChange([stream('users')], [stream('users', { cursorField: 'ts' })], selected)?.event).toBe('connectionUpdateActionRequired');
    // A key nobody dedups on may move freely.
    expect(schemaChange([stream('users')], [stream('users', { primaryKey: ['uid'] })], [{ name: 'users', syncMode: 'full_refresh_overwrite' }])?.event).toBe(
      'connectionUpdate',
    );
  });

  it('never looked at before: only a synced stream gone is told', () => {
    expect(schemaChange(undefined, [stream('users'), stream('teams')], selected)).toBeUndefined();
    expect(schemaChange(undefined, [stream('teams')], selected)).toEqual({
      event: 'connectionUpdateActionRequired',
      diff: { added: [], removed: ['users'], changed: [] },
    });
  });
});

describe("Airbyte's formats", () => {
  it('formats durations and volumes as SyncSummary does', () => {
    expect([59, 61, 3600, 3661, 86_399, 90_000].map(formatDuration)).toEqual([
      '59 sec',
      '1 min 1 sec',
      '1 hours 0 min',
      '1 hours 1 min',
      '23 hours 59 min',
      '1 days 25 hours',
    ]);
    expect([0, 1023, 1024, 159_341_141, 5 * 1024 ** 5].map(formatVolume)).toEqual(['0 B', '1023 B', '1 kB', '151 MB', '5120 TB']);
  });

  it('keeps a long failure reason within what a Slack section takes, the summary whole', () => {
    const link = { id: 'x', name: 'X', url: 'https://app/x' };
    const summary = syncSummary(
      { workspace: link, connection: link, source: link, destination: link },
      {
        jobId: 1,
        success: false,
        startedAt: 0,
        finishedAt: 3_600_000,
        rows: 1,
        bytes: 1,
        error: { message: 'e'.repeat(10_000), type: 'system_error', origin: null },
      },
    );
    const message = jobMessage('failure', summary, DEFAULT_AUTO_DISABLE);
    const reason = message.blocks.find((block) => block.type === 'section' && block.text?.text.startsWith('*Failure reason:*'));
    expect(reason?.type === 'section' && reason.text!.text.length).toBeLessThanOrEqual(3000);
    expect(reason?.type === 'section' && reason.text!.text.endsWith('…\n```\n')).toBe(true);
    expect(message.data?.errorMessage).toHaveLength(10_000);
  });

  it('sends Google Chat the text alone, as Airbyte does, and every other receiver the whole message', () => {
    const message = { text: 'hi', blocks: [{ type: 'divider' }], data: { a: 1 } };
    expect(webhookBody('https://chat.googleapis.com/v1/spaces/x/messages?key=k', message)).toBe('{"text":"hi"}');
    expect(webhookBody('https://hooks.slack.com/services/T/B/X', message)).toBe(JSON.stringify(message));
  });
});

describe('webhook URLs in settings', () => {
  const settings = new WorkspaceWebhookSettings(EgressPolicy.fromSetting('127.0.0.0/8'));
  const slack = 'https://hooks.slack.com/services/T000/B000/XXXX';

  it('are masked past the host, and a mask written back stands for the stored URL of the same event', async () => {
    expect(maskedUrl(slack)).toBe('https://hooks.slack.com/**********');
    const stored = { failure: { webhook: { enabled: true, url: slack } } };
    const back = await settings.accept({ failure: { webhook: { enabled: false, url: maskedUrl(slack) } } }, stored);
    expect(back).toEqual({ failure: { webhook: { enabled: false, url: slack } } });
    const elsewhere = settings.accept({ success: { webhook: { enabled: true, url: maskedUrl(slack) } } }, stored);
    await expect(elsewhere).rejects.toBeInstanceOf(ValidationError);
  });

  it('must be http(s), and an address the egress policy refuses is a 400 egress_refused', async () => {
    await expect(settings.accept({ failure: { webhook: { enabled: true, url: 'file:///etc/passwd' } } }, null)).rejects.toBeInstanceOf(ValidationError);
    const refused = settings.accept({ failure: { webhook: { enabled: true, url: 'http://10.0.0.8/hook' } } }, null);
    await expect(refused).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(refused).rejects.toMatchObject({ status: 400, error_code: 'egress_refused' });
    // Off, with no URL, as Airbyte's clients send it.
    expect(await settings.accept({ failure: { webhook: { enabled: false, url: '' } } }, null)).toEqual({ failure: { webhook: { enabled: false, url: '' } } });
  });
});
