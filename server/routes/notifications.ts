import { organizationWebhookRoutes } from './notifications-organization.ts';
import { workspaceNotificationRoutes } from './notifications-workspace.ts';

/** Webhook notifications: a workspace's (public API) and an organization's (embedded). docs/notifications.md. */
export const notificationRoutes = [...workspaceNotificationRoutes, ...organizationWebhookRoutes];
