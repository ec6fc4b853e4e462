import { BadRequestError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import { workspaceOf } from '../cloud-api/organization-workspaces.ts';
import type { PublicPage } from '../cloud-api/public-workspaces.ts';
import type { NotificationDelivery, WebhookSecret } from '../types.generated.ts';
import type { DeliveryStatus } from './deliveries.ts';
import type { Links } from './links.ts';
import type { NotificationLog } from './notification-log.ts';
import type { AutoDisableThresholds } from './notification-settings.ts';
import { testWorkspaceMessage } from './test-messages.ts';
import type { WorkspaceEvent } from './workspace-messages.ts';
import { workspaceOutgoing } from './workspace-outgoing.ts';

/** A workspace's notifications through the public API, seen by its organization's operator (another's workspace is not found). */
export class WorkspaceNotifications {
  constructor(
    private readonly store: Store,
    private readonly log: NotificationLog,
    private readonly links: Links,
    private readonly thresholds: AutoDisableThresholds,
    private readonly clock: () => number,
  ) {}

  async deliveries(
    organizationId: string,
    workspaceId: string,
    page: { limit: number; offset: number; status?: DeliveryStatus },
  ): Promise<PublicPage<NotificationDelivery>> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    return this.log.page({ kind: 'workspace', id: workspace.id }, page);
  }

  async rotateSecret(organizationId: string, workspaceId: string): Promise<WebhookSecret> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    return this.log.rotateSecret({ kind: 'workspace', id: workspace.id });
  }

  /** A sample of the event's message to the webhook the settings give it; a 400 when they give it none. */
  async sendTest(organizationId: string, workspaceId: string, event: WorkspaceEvent): Promise<NotificationDelivery> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const [outgoing] = workspaceOutgoing(workspace, event, testWorkspaceMessage(event, this.links, this.thresholds, this.clock()));
    if (!outgoing) throw new BadRequestError(`The workspace's notifications have no webhook switched on for ${event}`, 'notification_not_configured');
    return this.log.queue(outgoing);
  }
}
