import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { deliveryList, deliveryPageOf, NO_BODY_ANSWERS } from './notifications-shared.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';

const common = { tags: ['notifications'], auth: ['operator'] as const, problems: true };
const NO_WORKSPACE = 'No such workspace in the organization';

/**
 * A workspace's notifications beside its settings (the public API's workspace `notifications`): the
 * log of its webhook deliveries, the rotation of its signing secret, a test send. docs/notifications.md.
 */
export const workspaceNotificationRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/workspaces/:workspace_id/notifications/deliveries'),
    summary: "List the workspace's webhook deliveries, newest first, a page at a time: event, URL host, status, attempts, last error, next attempt.",
    query: SERVER_SCHEMAS['notification-delivery-query.json'],
    returns: SERVER_SCHEMAS['notification-delivery-list.json'],
    responses: { 200: 'A page of deliveries', 400: INVALID, 401: NOT_ALLOWED, 404: NO_WORKSPACE },
    async handler({ hosted, claims, params, query, ctx, config }) {
      const page = deliveryPageOf(query);
      return deliveryList(ctx, config, page, await hosted.notifications.workspaces.deliveries(claims.organization_id, params.workspace_id!, page));
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'admin',
    paths: at('/workspaces/:workspace_id/notifications/secret'),
    summary:
      "Make the workspace's webhook signing secret anew (Standard Webhooks, whsec_...), answered this once; the one it replaces keeps signing beside it for a day. Until the first, deliveries are unsigned.",
    returns: SERVER_SCHEMAS['webhook-secret.json'],
    responses: { ...NO_BODY_ANSWERS, 200: 'The new secret', 401: NOT_ALLOWED, 404: NO_WORKSPACE },
    handler: ({ hosted, claims, params }) => hosted.notifications.workspaces.rotateSecret(claims.organization_id, params.workspace_id!),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'admin',
    paths: at('/workspaces/:workspace_id/notifications/test'),
    summary: "Send a sample of an event's message, marked as a test, to the webhook the workspace's settings give that event; answers its delivery.",
    body: SERVER_SCHEMAS['notification-test-request.json'],
    returns: SERVER_SCHEMAS['notification-delivery.json'],
    responses: { 200: 'The delivery, queued', 400: 'The settings switch no webhook on for the event', 401: NOT_ALLOWED, 404: NO_WORKSPACE },
    handler: ({ hosted, claims, params, body }) => hosted.notifications.workspaces.sendTest(claims.organization_id, params.workspace_id!, body.event),
  }),
];
