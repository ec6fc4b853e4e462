import type { ConnectorList, ReplicationState } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { Empty, ErrorNote, Loading, StatusBadge } from '../states.ts';

type Connector = ConnectorList['data'][number];

const EVERY_MS = 10_000;

/** The workspace's embedded end users (by their external id): the sources each connected, and how each one's replication stands. */
export function EndUsers({ workspaceId }: { workspaceId: string }) {
  const connectors = usePoll<ConnectorList>(`/workspace/${workspaceId}/api/v1/integrations/connectors`, EVERY_MS);
  const byUser = new Map<string, Connector[]>();
  for (const connector of connectors.data?.data ?? []) byUser.set(connector.external_user_id, [...(byUser.get(connector.external_user_id) ?? []), connector]);
  return html`<h1 tabindex="-1">End users</h1>
    <p><a href=${href('workspaces', workspaceId)}>Back to the workspace</a></p>
    <${ErrorNote} error=${connectors.error} />
    ${!connectors.data && !connectors.error && html`<${Loading} what="end users" />`}
    ${byUser.size === 0 && connectors.data && html`<${Empty}>No end user has connected a source here yet: open the widget for this workspace to connect one.<//>`}
    ${[...byUser].map(
      ([user, owned]) => html`<section key=${user} aria-labelledby=${`user-${user}`}>
        <h2 id=${`user-${user}`}>${user}</h2>
        <ul class="cards">
          ${owned.map((connector) => html`<${EndUserSource} key=${connector.id} workspaceId=${workspaceId} connector=${connector} />`)}
        </ul>
      </section>`,
    )}`;
}

/** One end user's source: whether its account still works, its replication's status, its entities' counts and its last error. */
function EndUserSource({ workspaceId, connector }: { workspaceId: string; connector: Connector }) {
  const replication = usePoll<ReplicationState>(`/workspace/${workspaceId}/api/v1/connectors/sources/${connector.id}/replication`, EVERY_MS);
  const state = replication.data;
  return html`<li>
    <div class="row-head">
      <span><strong>${connector.name}</strong> <span class="muted">${connector.connector_type}</span></span>
      ${connector.auth_status === 'needs_reauth' && html`<${StatusBadge} status="needs-reauthorization" />`}
    </div>
    ${replication.error?.status === 400 && html`<p class="muted">This type keeps no searchable copy.</p>`}
    ${replication.error && replication.error.status !== 400 && html`<${ErrorNote} error=${replication.error} />`}
    ${
      state &&
      html`<p>Replication: <${StatusBadge} status=${state.status} /> ${state.finished_at ? html` · last finished ${new Date(state.finished_at).toLocaleString()}` : ''}</p>
      ${state.error && html`<p class="error">Last error: ${state.error}</p>`}
      <div class="table-wrap"><table>
        <caption class="visually-hidden">Records kept per entity</caption>
        <thead><tr><th scope="col">Entity</th><th scope="col">Records</th><th scope="col">Status</th></tr></thead>
        <tbody>
          ${Object.entries(state.entities).map(
            ([entity, counts]) =>
              html`<tr key=${entity}><th scope="row">${entity}</th><td>${counts.records.toLocaleString()}</td><td><${StatusBadge} status=${counts.status} /></td></tr>`,
          )}
        </tbody>
      </table></div>`
    }
  </li>`;
}
