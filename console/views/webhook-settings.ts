import type { NotificationDeliveryList, OrganizationWebhook } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { DeliveryLog } from './delivery-log.ts';
import { Empty, ErrorNote } from '../states.ts';

const EVERY_MS = 5_000;
const WEBHOOK = '/api/v1/organizations/webhook';

/** The organization's webhook for its embedded sources' events: its URL (masked past the host), setting it, a test message, and the delivery log. */
export function WebhookSettings() {
  const isAdmin = useCan('admin');
  const webhook = usePoll<OrganizationWebhook>(WEBHOOK);
  const deliveries = usePoll<NotificationDeliveryList>(`${WEBHOOK}/deliveries?limit=20`, EVERY_MS);
  const save = useSubmit(async (fields) => {
    await call('PUT', WEBHOOK, { url: String(fields.get('url')) });
    webhook.reload();
  });
  const test = useSubmit(async () => {
    await call('POST', `${WEBHOOK}/test`);
    deliveries.reload();
  });
  const unset = webhook.error?.status === 404;
  return html`<section aria-labelledby="webhook-heading">
    <h2 id="webhook-heading">Notification webhook</h2>
    ${webhook.data && html`<p>Events go to <code>${webhook.data.url}</code> (set ${new Date(webhook.data.updated_at).toLocaleString()}).</p>`}
    ${unset && html`<${Empty}>No webhook yet: set one to hear when end users' sources are created, need reconnecting, or finish replicating.<//>`}
    ${webhook.error && !unset && html`<${ErrorNote} error=${webhook.error} />`}
    ${
      isAdmin &&
      html`<form class="panel" onSubmit=${save.onSubmit} aria-label="Set the webhook">
        <${Field} id="webhook-url" label="Webhook URL" hint="An absolute http(s) URL the server's egress policy allows.">
          <input id="webhook-url" name="url" type="url" required aria-describedby="webhook-url-hint" />
        <//>
        <${ErrorNote} error=${save.error} />
        <button type="submit" disabled=${save.busy}>Save webhook</button>
      </form>
      ${webhook.data && html`<form onSubmit=${test.onSubmit}><button type="submit" class="secondary" disabled=${test.busy}>Send a test message</button><${ErrorNote} error=${test.error} /></form>`}`
    }
    <${DeliveryLog} log=${deliveries} caption="Webhook deliveries, newest first" />
  </section>`;
}
