import type { NotificationDeliveryList } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { StatusBadge } from '../states.ts';

/** A webhook's deliveries, newest first (the organization's and each workspace's log read alike). */
export function DeliveryLog({ deliveries, caption }: { deliveries: NotificationDeliveryList | undefined; caption: string }) {
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
