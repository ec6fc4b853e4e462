import type { ParameterizedContext } from 'koa';
import type { PublicPage } from '../../core/hosted/cloud-api/public-workspaces.ts';
import type { DeliveryStatus } from '../../core/hosted/notifications/deliveries.ts';
import type { NotificationDelivery, NotificationDeliveryQuery } from '../../core/hosted/types.generated.ts';
import type { ServerConfig } from '../config.ts';
import { type Page, pageLinks, pageOf } from './public-pages.ts';

/** The page and status a delivery log is asked for. */
export function deliveryPageOf(query: NotificationDeliveryQuery): Page & { status?: DeliveryStatus } {
  return { ...pageOf(query), ...(query.status ? { status: query.status } : {}) };
}

/** A delivery log's answer: the page and the addresses of its neighbours. */
export function deliveryList(ctx: ParameterizedContext, config: ServerConfig, page: Page, found: PublicPage<NotificationDelivery>) {
  return { data: found.items, ...pageLinks(ctx, config, page, found) };
}

/** What a POST that takes no body may still answer: the route layer reads whatever body comes (server/app.ts). */
export const NO_BODY_ANSWERS = {
  400: 'A body that is not valid JSON (it takes none)',
  413: 'A body larger than the limit (it takes none)',
  415: 'A body that is not application/json (it takes none)',
};
