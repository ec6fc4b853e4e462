import type { NotificationDeliveryList, PublicNotifications, PublicWorkspace } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { DeliveryLog } from './delivery-log.ts';
import { Empty, ErrorNote } from '../states.ts';

const EVERY_MS = 5_000;
type Event = keyof PublicNotifications;
/** Airbyte's six events, as the settings name them, and what each is said to be. */
const EVENTS: Array<[Event, string]> = [
  ['failure', 'A sync fails'],
  ['success', 'A sync succeeds'],
  ['connectionUpdate', "A source's streams change"],
  ['connectionUpdateActionRequired', "A source's streams change and break the sync"],
  ['syncDisabledWarning', 'A connection is about to be disabled'],
  ['syncDisabled', 'A connection is disabled after failing'],
];

/**
 * A workspace's notification webhooks (PATCH /v1/workspaces/{id} `notifications`): per event, on or
 * off and its URL (answered masked past the host; a masked URL sent back keeps the stored one), a
 * test send, and the workspace's delivery log.
 */
export function WorkspaceNotifications({ workspace, onChanged }: { workspace: PublicWorkspace; onChanged: () => void }) {
  const id = workspace.workspaceId;
  const isAdmin = useCan('admin', id);
  const deliveries = usePoll<NotificationDeliveryList>(`/v1/workspaces/${id}/notifications/deliveries?limit=20`, EVERY_MS);
  const settings = workspace.notifications;
  const save = useSubmit(async (fields) => {
    const notifications: PublicNotifications = {};
    for (const [event] of EVENTS) {
      const url = String(fields.get(`${event}-url`) ?? '').trim();
      notifications[event] = { ...settings[event], webhook: { enabled: fields.get(`${event}-enabled`) === 'on', ...(url ? { url } : {}) } };
    }
    await call('PATCH', `/v1/workspaces/${id}`, { notifications });
    onChanged();
  });
  const test = useSubmit(async (fields) => {
    await call('POST', `/v1/workspaces/${id}/notifications/test`, { event: String(fields.get('event')) });
    deliveries.reload();
  });
  const on = EVENTS.filter(([event]) => settings[event]?.webhook?.enabled && settings[event]?.webhook?.url);
  return html`<section aria-labelledby="notifications-heading">
    <h2 id="notifications-heading">Notifications</h2>
    ${on.length === 0 && html`<${Empty}>No notification webhook yet: switch one on for an event to hear of failed syncs, schema changes or disabled connections.<//>`}
    ${
      on.length > 0 &&
      html`<ul>
        ${on.map(([event, words]) => html`<li key=${event}>${words} (<code>${event}</code>): <code>${settings[event]?.webhook?.url}</code></li>`)}
      </ul>`
    }
    ${!isAdmin && html`<p class="muted">Only an administrator of the workspace changes them.</p>`}
    ${
      isAdmin &&
      html`<form class="panel" key=${JSON.stringify(settings)} onSubmit=${save.onSubmit} aria-label="Notification webhooks">
        ${EVENTS.map(
          ([event, words]) => html`<fieldset key=${event}>
            <legend>${words} (<code>${event}</code>)</legend>
            <div class="field">
              <label><input type="checkbox" name=${`${event}-enabled`} defaultChecked=${settings[event]?.webhook?.enabled === true} /> Send a webhook on ${event}</label>
            </div>
            <${Field} id=${`notify-${event}-url`} label=${`Webhook URL for ${event}`}>
              <input id=${`notify-${event}-url`} name=${`${event}-url`} type="text" inputmode="url" autocomplete="off" defaultValue=${settings[event]?.webhook?.url ?? ''} />
            <//>
          </fieldset>`,
        )}
        <${ErrorNote} error=${save.error} />
        <button type="submit" disabled=${save.busy}>Save notifications</button>
      </form>
      ${
        on.length > 0 &&
        html`<form class="panel" onSubmit=${test.onSubmit} aria-label="Send a test notification">
          <${Field} id="notify-test-event" label="Event to test">
            <select id="notify-test-event" name="event">${on.map(([event]) => html`<option key=${event} value=${event}>${event}</option>`)}</select>
          <//>
          <${ErrorNote} error=${test.error} />
          <button type="submit" class="secondary" disabled=${test.busy}>Send a test notification</button>
        </form>`
      }`
    }
    <${DeliveryLog} log=${deliveries} caption="The workspace's notification deliveries, newest first" />
  </section>`;
}
