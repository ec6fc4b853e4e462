import type { Workspace } from '../../stores/types.ts';
import type { PublicNotifications } from '../types.generated.ts';
import type { Outgoing } from './deliveries.ts';
import { webhookBody } from './webhook-channels.ts';
import type { WorkspaceEvent, WorkspaceMessage } from './workspace-messages.ts';

/** The workspace's webhook for an event, when its settings switch it on and give a URL. */
export function workspaceWebhookUrl(workspace: Workspace, event: WorkspaceEvent): string | undefined {
  const webhook = (workspace.notifications as PublicNotifications | null | undefined)?.[event]?.webhook;
  return webhook?.enabled === true && webhook.url ? webhook.url : undefined;
}

/** The delivery of a message to the workspace's webhook for its event; none when the settings ask for none. */
export function workspaceOutgoing(
  workspace: Workspace,
  event: WorkspaceEvent,
  message: WorkspaceMessage,
  about: { connectionId?: string; jobId?: number } = {},
): Outgoing[] {
  const url = workspaceWebhookUrl(workspace, event);
  if (!url) return [];
  return [
    {
      owner: { kind: 'workspace', id: workspace.id },
      organizationId: workspace.organization_id,
      eventType: event,
      url,
      body: webhookBody(url, message),
      ...about,
    },
  ];
}
