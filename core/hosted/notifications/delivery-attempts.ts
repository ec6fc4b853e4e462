import { type DataKeyring, UndecryptableValueError } from '../../security/data-keyring.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { Deliveries, DeliveryRecord } from './deliveries.ts';
import type { NotificationSettings } from './notification-settings.ts';
import { postWebhook, WebhookSendError } from './post-webhook.ts';
import { nextAttemptAt } from './retry-policy.ts';
import { webhookHeaders } from './standard-webhooks.ts';
import type { WebhookSecrets } from './webhook-secrets.ts';

/** What the log hears of an attempt: the delivery, its event and host, never the URL's path. */
export type NotificationLogEvent =
  | { event: 'notification_delivered'; delivery_id: string; type: string; host: string; attempt: number; status_code: number }
  | { event: 'notification_attempt_failed'; delivery_id: string; type: string; host: string; attempt: number; error: string; given_up: boolean }
  | { event: 'notification_poll_failed'; error: string };

export interface DeliveryAttemptDependencies {
  deliveries: Deliveries;
  secrets: WebhookSecrets;
  keyring: DataKeyring;
  egress: EgressPolicy;
  settings: Pick<NotificationSettings, 'retryDelaysMs' | 'timeoutMs'>;
  clock: () => number;
  log?: (event: NotificationLogEvent) => void;
}

/**
 * One attempt at a claimed delivery: the URL opened, the body signed with the owner's secrets of
 * now (a rotation applies to retries too) and posted; a 2xx delivers it, anything else schedules the
 * next attempt (retry-policy.ts) or gives it up.
 */
export class DeliveryAttempts {
  constructor(private readonly deps: DeliveryAttemptDependencies) {}

  async run(id: string, attempt: number, owner: string, signal: AbortSignal): Promise<void> {
    const { deliveries, settings } = this.deps;
    const delivery = await deliveries.get(id);
    if (delivery?.status !== 'pending') return;
    // Past the schedule (attempts cut off by crashes count): given up without sending again.
    if (attempt > settings.retryDelaysMs.length + 1)
      return this.failed(delivery, attempt, owner, { error: `given up after ${attempt - 1} attempts`, final: true });
    const url = this.open(delivery);
    if (url === undefined)
      return this.failed(delivery, attempt, owner, { error: 'the data key that sealed its URL is not among the configured data keys', final: true });
    // The wall clock, not the runtime's: receivers check it against theirs.
    const headers = webhookHeaders(await this.deps.secrets.signing(delivery.owner), id, Math.floor(Date.now() / 1000), delivery.body);
    try {
      const answer = await postWebhook(url, delivery.body, headers, { egress: this.deps.egress, timeoutMs: settings.timeoutMs, signal });
      if (answer.statusCode >= 200 && answer.statusCode < 300) {
        await deliveries.delivered(id, owner, answer.statusCode);
        this.deps.log?.({ ...this.about(delivery, attempt), event: 'notification_delivered', status_code: answer.statusCode });
        return;
      }
      const error = `HTTP ${answer.statusCode}${answer.snippet ? `: ${answer.snippet}` : ''}`;
      await this.failed(delivery, attempt, owner, { error, statusCode: answer.statusCode, retryAfterMs: answer.retryAfterMs });
    } catch (error) {
      // Stopping: let go at once, to be sent again (with the same id) by the next start or another instance.
      if (signal.aborted) return deliveries.release(id, owner);
      if (!(error instanceof WebhookSendError)) throw error;
      await this.failed(delivery, attempt, owner, { error: error.message, refused: error.refused });
    }
  }

  private open(delivery: DeliveryRecord): string | undefined {
    try {
      return this.deps.keyring.decrypt(delivery.sealedUrl);
    } catch (error) {
      if (error instanceof UndecryptableValueError) return undefined;
      throw error;
    }
  }

  private async failed(
    delivery: DeliveryRecord,
    attempt: number,
    owner: string,
    /** `final`: no attempt follows, whatever the schedule says. */
    result: { error: string; statusCode?: number; retryAfterMs?: number; refused?: boolean; final?: boolean },
  ): Promise<void> {
    const retryAt = result.final ? undefined : nextAttemptAt(attempt, result, this.deps.settings.retryDelaysMs, this.deps.clock());
    await this.deps.deliveries.attemptFailed(delivery.id, owner, { error: result.error, statusCode: result.statusCode, retryAt });
    this.deps.log?.({ ...this.about(delivery, attempt), event: 'notification_attempt_failed', error: result.error, given_up: retryAt === undefined });
  }

  private about(delivery: DeliveryRecord, attempt: number) {
    return { delivery_id: delivery.id, type: delivery.eventType, host: delivery.urlOrigin, attempt };
  }
}
