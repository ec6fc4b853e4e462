import { useState } from 'preact/hooks';
import type { PublicWorkspaceList } from '../../core/hosted/types.generated.ts';
import { readAllPages } from '../all-pages.ts';
import { Field } from '../forms.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { ErrorNote } from '../states.ts';
import { OAuthAppEditor } from './oauth-app-editor.ts';

/**
 * A workspace's own OAuth apps (PUT /v1/workspaces/{id}/oauthCredentials): they override the
 * organization's for that workspace's consents. One workspace at a time, picked from the list.
 */
export function WorkspaceOAuthSettings() {
  const workspaces = usePoll<PublicWorkspaceList>('/v1/workspaces', 0, readAllPages);
  const [picked, setPicked] = useState<string>();
  const list = workspaces.data?.data ?? [];
  const workspace = list.find((one) => one.workspaceId === picked) ?? list[0];
  const isAdmin = useCan('admin', workspace?.workspaceId);
  return html`<section aria-labelledby="workspace-oauth-heading">
    <h2 id="workspace-oauth-heading">A workspace's own OAuth apps</h2>
    <p class="muted">A workspace's app for a source type serves its consents instead of the organization's.</p>
    <${ErrorNote} error=${workspaces.error} />
    ${
      list.length > 0 &&
      html`<${Field} id="workspace-oauth-workspace" label="Workspace">
        <select id="workspace-oauth-workspace" value=${workspace?.workspaceId} onChange=${(event: Event) => setPicked((event.target as HTMLSelectElement).value)}>
          ${list.map((one) => html`<option value=${one.workspaceId}>${one.name}</option>`)}
        </select>
      <//>`
    }
    ${
      workspace &&
      html`<${OAuthAppEditor}
        key=${workspace.workspaceId}
        base=${`/v1/workspaces/${workspace.workspaceId}/oauthCredentials`}
        owner="workspace"
        ownerName=${`workspace ${workspace.name}`}
        idPrefix="workspace-oauth"
        isAdmin=${isAdmin}
      />`
    }
  </section>`;
}
