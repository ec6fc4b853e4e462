import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { deliveryList, deliveryPageOf, NO_BODY_ANSWERS } from './notifications-shared.ts';

const common = { tags: ['notifications'], auth: ['operator'] as const };
const OPERATOR = 'Missing or invalid operator token';
const NOT_SET = 'The organization has no webhook';
const PATH = '/api/v1/organizations/webhook';

/**
 * The organization's webhook for its embedded sources (source created, updated, deleted, to be
 * connected again; replication ready or failed), for its operator. docs/notifications.md.
 */
export const organizationWebhookRoutes = [
  defineRoute({
    ...common,
    method: 'put',
    access: 'admin',
    paths: [PATH],
    summary: "Set the URL the organization's embedded events are sent to (an absolute http(s) URL the egress policy allows).",
    body: SERVER_SCHEMAS['organization-webhook-request.json'],
    returns: SERVER_SCHEMAS['organization-webhook.json'],
    responses: {
      200: 'The webhook, its URL masked past the host',
      400: 'The egress policy refuses the address (egress_refused)',
      401: OPERATOR,
      422: 'Not an http(s) URL',
    },
    handler: ({ hosted, claims, body }) => hosted.notifications.organizationWebhooks.set(claims.organization_id, body.url),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: [PATH],
    summary: "The organization's webhook, its URL masked past the host.",
    returns: SERVER_SCHEMAS['organization-webhook.json'],
    responses: { 200: 'The webhook', 401: OPERATOR, 404: NOT_SET },
    handler: ({ hosted, claims }) => hosted.notifications.organizationWebhooks.get(claims.organization_id),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'admin',
    paths: [PATH],
    summary: "Remove the organization's webhook: its events are no longer sent (deliveries already queued still are).",
    status: 204,
    responses: { 204: 'Removed', 401: OPERATOR, 404: NOT_SET },
    async handler({ hosted, claims, ctx }) {
      await hosted.notifications.organizationWebhooks.delete(claims.organization_id);
      ctx.status = 204;
      return undefined;
    },
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: [`${PATH}/deliveries`],
    summary: "List the organization webhook's deliveries, newest first, a page at a time.",
    query: SERVER_SCHEMAS['notification-delivery-query.json'],
    returns: SERVER_SCHEMAS['notification-delivery-list.json'],
    responses: { 200: 'A page of deliveries', 401: OPERATOR, 422: 'Invalid paging' },
    async handler({ hosted, claims, query, ctx, config }) {
      const page = deliveryPageOf(query);
      return deliveryList(ctx, config, page, await hosted.notifications.organization.deliveries(claims.organization_id, page));
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'admin',
    paths: [`${PATH}/secret`],
    summary: "Make the organization webhook's signing secret anew (whsec_...), answered this once; the one it replaces keeps signing beside it for a day.",
    returns: SERVER_SCHEMAS['webhook-secret.json'],
    responses: { ...NO_BODY_ANSWERS, 200: 'The new secret', 401: OPERATOR },
    handler: ({ hosted, claims }) => hosted.notifications.organization.rotateSecret(claims.organization_id),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'admin',
    paths: [`${PATH}/test`],
    summary: 'Send a webhook.test message about a sample source to the organization webhook; answers its delivery.',
    returns: SERVER_SCHEMAS['notification-delivery.json'],
    responses: { ...NO_BODY_ANSWERS, 200: 'The delivery, queued', 401: OPERATOR, 404: NOT_SET },
    handler: ({ hosted, claims }) => hosted.notifications.organization.sendTest(claims.organization_id),
  }),
];
