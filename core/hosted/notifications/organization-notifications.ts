import type { PublicPage } from '../cloud-api/public-workspaces.ts';
import { requireOrganization } from '../permissions/request-access.ts';
import type { NotificationDelivery, WebhookSecret } from '../types.generated.ts';
import type { DeliveryStatus } from './deliveries.ts';
import { organizationOutgoing } from './embedded-expanders.ts';
import type { NotificationLog } from './notification-log.ts';
import { type OrganizationWebhooks, webhookNotSet } from './organization-webhooks.ts';
import { TEST_TAG, testEmbeddedSource } from './test-messages.ts';

/** An organization's webhook deliveries, secret and test sends, for its operator. */
export class OrganizationNotifications {
  constructor(
    private readonly webhooks: OrganizationWebhooks,
    private readonly log: NotificationLog,
    private readonly clock: () => number,
  ) {}

  async deliveries(organizationId: string, page: { limit: number; offset: number; status?: DeliveryStatus }): Promise<PublicPage<NotificationDelivery>> {
    requireOrganization();
    return this.log.page({ kind: 'organization', id: organizationId }, page);
  }

  async rotateSecret(organizationId: string): Promise<WebhookSecret> {
    requireOrganization();
    return this.log.rotateSecret({ kind: 'organization', id: organizationId });
  }

  /** A `webhook.test` message about a sample source; a 404 `webhook_not_set` when there is no webhook. */
  async sendTest(organizationId: string): Promise<NotificationDelivery> {
    requireOrganization();
    const [outgoing] = await organizationOutgoing(this.webhooks, 'webhook.test', testEmbeddedSource(organizationId), this.clock(), undefined, TEST_TAG);
    if (!outgoing) throw webhookNotSet();
    return this.log.queue(outgoing);
  }
}
