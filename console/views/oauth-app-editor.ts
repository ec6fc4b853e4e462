import { useState } from 'preact/hooks';
import type { PublicOAuthAppList } from '../../core/hosted/types.generated.ts';
import { type ApiError, call } from '../api.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { Empty, ErrorNote } from '../states.ts';

interface Props {
  /** `/v1/organizations/{id}/oauthCredentials` or `/v1/workspaces/{id}/oauthCredentials`. */
  base: string;
  owner: 'organization' | 'workspace';
  /** Names the owner in labels: "the organization", "workspace Support". */
  ownerName: string;
  /** Makes ids unique on the page. */
  idPrefix: string;
  /** Listing them is an administrator's, as changing them. */
  isAdmin: boolean;
}

/**
 * An owner's OAuth apps by source type: listed by client id (the API never answers a secret; a
 * workspace's list also holds its organization's, which serve it where it has none), registered or
 * replaced (the secret typed once, sent, and the form emptied), deleted.
 */
export function OAuthAppEditor({ base, owner, ownerName, idPrefix, isAdmin }: Props) {
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const apps = usePoll<PublicOAuthAppList>(isAdmin ? base : undefined);
  const register = useSubmit(async (fields) => {
    const name = String(fields.get('type'));
    const credentials = { client_id: String(fields.get('client_id')), client_secret: String(fields.get('client_secret')) };
    await call('PUT', base, { actorType: 'source', name, configuration: { credentials } });
    setDone(`The OAuth app for ${name} of ${ownerName} is registered.`);
    apps.reload();
  });
  const remove = async (name: string) => {
    setError(undefined);
    try {
      await call('DELETE', `${base}/source/${encodeURIComponent(name)}`);
      setDone(`The OAuth app for ${name} of ${ownerName} is deleted.`);
      apps.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  if (!isAdmin) return html`<p class="muted">Only an administrator of ${ownerName} registers them.</p>`;
  const list = apps.data?.data ?? [];
  return html`${done && html`<p class="notice" role="status">${done}</p>`}
    <${ErrorNote} error=${apps.error ?? error} />
    ${apps.data && list.length === 0 && html`<${Empty}>No OAuth app yet: register one below for each source type end users connect with OAuth.<//>`}
    ${
      list.length > 0 &&
      html`<div class="table-wrap"><table>
      <caption class="visually-hidden">OAuth apps of ${ownerName}</caption>
      <thead><tr><th scope="col">Source type</th><th scope="col">Client id</th><th scope="col">Registered by</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${list.map(
          (app) => html`<tr key=${`${app.owner}/${app.ownerId}/${app.name}`}>
            <th scope="row">${app.name}</th>
            <td><code>${app.clientId}</code></td>
            <td>${app.owner === 'organization' ? (owner === 'workspace' ? 'the organization (used where the workspace has none)' : 'the organization') : 'this workspace'}</td>
            <td>${new Date(app.updatedAt).toLocaleString()}</td>
            <td>${app.owner === owner && html`<button type="button" class="secondary" aria-label=${`Delete the ${app.name} app of ${ownerName}`} onClick=${() => remove(app.name)}>Delete</button>`}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }
    <form class="panel" onSubmit=${register.onSubmit} aria-label=${`Register an OAuth app for ${ownerName}`}>
      <${Field} id=${`${idPrefix}-type`} label="Source type"><input id=${`${idPrefix}-type`} name="type" value="slack" required /><//>
      <${Field} id=${`${idPrefix}-client-id`} label="Client id"><input id=${`${idPrefix}-client-id`} name="client_id" required autocomplete="off" /><//>
      <${Field} id=${`${idPrefix}-client-secret`} label="Client secret" hint="Sent once, sealed by the server, never shown again.">
        <input id=${`${idPrefix}-client-secret`} name="client_secret" type="password" required autocomplete="off" aria-describedby=${`${idPrefix}-client-secret-hint`} />
      <//>
      <${ErrorNote} error=${register.error} />
      <button type="submit" disabled=${register.busy}>Register OAuth app for ${ownerName}</button>
    </form>`;
}
