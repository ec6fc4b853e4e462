import type { NotificationDeliveryList } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import type { Polled } from '../poll.ts';
import { Empty, ErrorNote, StatusBadge } from '../states.ts';

/** A webhook's delivery log, newest first (the organization's and each workspace's read alike): its heading, what failed reading it, or its deliveries. */
export function DeliveryLog({ log, caption }: { log: Polled<NotificationDeliveryList>; caption: string }) {
  return html`<h3>Delivery log</h3>
    <${ErrorNote} error=${log.error} />
    ${log.data?.data.length === 0 && html`<${Empty}>Nothing sent yet.<//>`}
    <${DeliveryTable} deliveries=${log.data} caption=${caption} />`;
}

function DeliveryTable({ deliveries, caption }: { deliveries: NotificationDeliveryList | undefined; caption: string }) {
  if (!deliveries || deliveries.data.length === 0) return null;
  return html`<div class="table-wrap"><table>
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Created</th></tr></thead>
    <tbody>
      ${deliveries.data.map(
        (delivery) => html`<tr key=${delivery.deliveryId}>
          <th scope="row">${delivery.event}</th>
          <td><${StatusBadge} status=${delivery.status} /></td>
          <td>${delivery.attempts}</td>
          <td>${delivery.lastStatusCode ?? ''} ${delivery.lastError ?? ''}</td>
          <td>${new Date(delivery.createdAt).toLocaleString()}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}
