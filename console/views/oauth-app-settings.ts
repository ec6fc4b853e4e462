import { useState } from 'preact/hooks';
import type { PublicOAuthAppList } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { Empty, ErrorNote } from '../states.ts';

/**
 * The organization's OAuth apps, by source type: listed (client ids only: the API never answers a
 * secret), registered or replaced, or deleted. Listing them is an administrator's, as changing them.
 */
export function OAuthAppSettings({ organizationId }: { organizationId: string }) {
  const isAdmin = useCan('admin');
  const [done, setDone] = useState<string>();
  const base = `/v1/organizations/${organizationId}/oauthCredentials`;
  const apps = usePoll<PublicOAuthAppList>(isAdmin ? base : undefined);
  const register = useSubmit(async (fields) => {
    const name = String(fields.get('type'));
    const credentials = { client_id: String(fields.get('client_id')), client_secret: String(fields.get('client_secret')) };
    await call('PUT', base, { actorType: 'source', name, configuration: { credentials } });
    setDone(`The OAuth app for ${name} is registered.`);
    apps.reload();
  });
  const remove = useSubmit(async (fields) => {
    const name = String(fields.get('type'));
    await call('DELETE', `${base}/source/${encodeURIComponent(name)}`);
    setDone(`The OAuth app for ${name} is deleted.`);
    apps.reload();
  });
  return html`<section aria-labelledby="oauth-heading">
    <h2 id="oauth-heading">OAuth apps</h2>
    <p class="muted">The app (client id and secret) that consents use for a source type: Connect with Slack, with Google, and reconnects.</p>
    ${!isAdmin && html`<p class="muted">Only an organization administrator registers them.</p>`}
    ${done && html`<p class="notice" role="status">${done}</p>`}
    <${ErrorNote} error=${apps.error} />
    ${apps.data?.data.length === 0 && html`<${Empty}>No OAuth app yet: register one below for each source type end users connect with OAuth.<//>`}
    ${
      apps.data &&
      apps.data.data.length > 0 &&
      html`<div class="table-wrap"><table>
      <caption class="visually-hidden">Registered OAuth apps</caption>
      <thead><tr><th scope="col">Source type</th><th scope="col">Client id</th><th scope="col">Registered by</th><th scope="col">Updated</th></tr></thead>
      <tbody>
        ${apps.data.data.map(
          (app) => html`<tr key=${`${app.owner}/${app.ownerId}/${app.name}`}>
            <th scope="row">${app.name}</th>
            <td><code>${app.clientId}</code></td>
            <td>${app.owner === 'organization' ? 'the organization' : `workspace ${app.ownerId}`}</td>
            <td>${new Date(app.updatedAt).toLocaleString()}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }
    ${
      isAdmin &&
      html`<form class="panel" onSubmit=${register.onSubmit} aria-label="Register an OAuth app">
        <${Field} id="oauth-type" label="Source type"><input id="oauth-type" name="type" value="slack" required /><//>
        <${Field} id="oauth-client-id" label="Client id"><input id="oauth-client-id" name="client_id" required autocomplete="off" /><//>
        <${Field} id="oauth-client-secret" label="Client secret"><input id="oauth-client-secret" name="client_secret" type="password" required autocomplete="off" /><//>
        <${ErrorNote} error=${register.error} />
        <button type="submit" disabled=${register.busy}>Register OAuth app</button>
      </form>
      <form class="panel" onSubmit=${remove.onSubmit} aria-label="Delete an OAuth app">
        <${Field} id="oauth-delete-type" label="Source type of the app to delete"><input id="oauth-delete-type" name="type" required /><//>
        <${ErrorNote} error=${remove.error} />
        <button type="submit" class="secondary" disabled=${remove.busy}>Delete OAuth app</button>
      </form>`
    }
  </section>`;
}
