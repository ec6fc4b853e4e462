import type { NotificationDelivery, WebhookSecret } from '../types.generated.ts';
import type { PublicPage } from '../cloud-api/public-workspaces.ts';
import type { Deliveries, DeliveryRecord, DeliveryStatus, Outgoing } from './deliveries.ts';
import type { WebhookOwner, WebhookSecrets } from './webhook-secrets.ts';
import { maskedUrl } from './webhook-urls.ts';

/**
 * What the API does alike for a workspace's notifications and an organization's webhook: read the
 * delivery log, rotate the signing secret, queue a test message.
 */
export class NotificationLog {
  constructor(
    private readonly deliveries: Deliveries,
    private readonly secrets: WebhookSecrets,
    /** Tells the delivery worker something is due now. */
    private readonly queued: () => void,
  ) {}

  async page(owner: WebhookOwner, page: { limit: number; offset: number; status?: DeliveryStatus }): Promise<PublicPage<NotificationDelivery>> {
    const rows = await this.deliveries.list(owner, page);
    return { items: rows.slice(0, page.limit).map(deliveryView), more: rows.length > page.limit };
  }

  rotateSecret(owner: WebhookOwner): Promise<WebhookSecret> {
    return this.secrets.rotate(owner);
  }

  /** Queues a message at once (a test send: no event precedes it) and answers its delivery. */
  async queue(outgoing: Outgoing): Promise<NotificationDelivery> {
    const id = await this.deliveries.add(outgoing);
    this.queued();
    return deliveryView((await this.deliveries.get(id))!);
  }
}

/** A delivery as the log answers it: the URL masked past its host, the times ISO-8601. */
export function deliveryView(delivery: DeliveryRecord): NotificationDelivery {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    deliveryId: delivery.id,
    event: delivery.eventType,
    url: maskedUrl(delivery.urlOrigin),
    status: delivery.status,
    attempts: delivery.attempts,
    ...(delivery.lastStatusCode === null ? {} : { lastStatusCode: delivery.lastStatusCode }),
    ...(delivery.lastError === null ? {} : { lastError: delivery.lastError }),
    ...(delivery.status === 'pending' ? { nextAttemptAt: iso(delivery.nextAttemptAt) } : {}),
    createdAt: iso(delivery.createdAt),
    ...(delivery.finishedAt === null ? {} : { finishedAt: iso(delivery.finishedAt) }),
    ...(delivery.connectionId === null ? {} : { connectionId: delivery.connectionId }),
    ...(delivery.jobId === null ? {} : { jobId: delivery.jobId }),
  };
}
