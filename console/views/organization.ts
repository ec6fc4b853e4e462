import type { PublicConnectionList, PublicDestinationList, PublicJobList, PublicSourceList, PublicWorkspaceList } from '../../core/hosted/types.generated.ts';
import { readAllPages } from '../all-pages.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { Empty, ErrorNote, Loading } from '../states.ts';
import { failingConnections } from './failing.ts';

const EVERY_MS = 10_000;

/** The organization: its workspaces with what each holds, those with failing connections first. */
export function Organization() {
  // Every page of each list (the API's pages hold 100 at most), so the counts hold past 100 a workspace.
  const workspaces = usePoll<PublicWorkspaceList>('/v1/workspaces', EVERY_MS, readAllPages);
  const sources = usePoll<PublicSourceList>('/v1/sources', EVERY_MS, readAllPages);
  const destinations = usePoll<PublicDestinationList>('/v1/destinations', EVERY_MS, readAllPages);
  const connections = usePoll<PublicConnectionList>('/v1/connections', EVERY_MS, readAllPages);
  const jobs = usePoll<PublicJobList>('/v1/jobs?limit=100', EVERY_MS);
  const failing = failingConnections(connections.data?.data ?? [], jobs.data?.data ?? []);
  const count = (list: Array<{ workspaceId: string }> | undefined, workspaceId: string) => list?.filter((item) => item.workspaceId === workspaceId).length ?? 0;
  const rows = (workspaces.data?.data ?? [])
    .map((workspace) => ({
      workspace,
      failing: [...failing].filter((connection) => connection.workspaceId === workspace.workspaceId).length,
    }))
    .sort((a, b) => b.failing - a.failing || a.workspace.name.localeCompare(b.workspace.name));
  return html`<h1 tabindex="-1">Workspaces</h1>
    <${ErrorNote} error=${workspaces.error} />
    ${!workspaces.data && !workspaces.error && html`<${Loading} what="workspaces" />`}
    ${
      workspaces.data?.data.length === 0 &&
      html`<${Empty}>No workspace yet. Create one with <code>POST /v1/workspaces</code>, or let the widget provision one for an end user.<//>`
    }
    ${
      rows.length > 0 &&
      html`<div class="table-wrap"><table>
      <caption class="visually-hidden">Workspaces, failing first</caption>
      <thead><tr><th scope="col">Workspace</th><th scope="col">Sources</th><th scope="col">Destinations</th><th scope="col">Connections</th><th scope="col">Failing</th></tr></thead>
      <tbody>
        ${rows.map(
          ({ workspace, failing: failed }) => html`<tr key=${workspace.workspaceId} class=${failed > 0 ? 'failing' : ''}>
            <th scope="row"><a href=${href('workspaces', workspace.workspaceId)}>${workspace.name}</a></th>
            <td>${count(sources.data?.data, workspace.workspaceId)}</td>
            <td>${count(destinations.data?.data, workspace.workspaceId)}</td>
            <td>${count(connections.data?.data, workspace.workspaceId)}</td>
            <td>${failed > 0 ? html`<strong class="bad">${failed} failing</strong>` : 'none'}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }`;
}
