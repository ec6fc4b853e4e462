import type { PublicConnectionList, PublicDestinationList, PublicSourceList, PublicWorkspace } from '../../core/hosted/types.generated.ts';
import { readAllPages } from '../all-pages.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { useCan } from '../permissions.ts';
import { Empty, ErrorNote, Loading } from '../states.ts';
import { AddPanel } from './add-panel.ts';
import { ConnectionForm } from './connection-form.ts';
import { ConnectionRow } from './connection-row.ts';
import { DestinationForm } from './destination-form.ts';
import { SourceCard } from './source-card.ts';
import { SourceForm } from './source-form.ts';
import { WorkspaceNotifications } from './workspace-notifications.ts';

const EVERY_MS = 10_000;

/** A workspace: its sources, destinations and connections, with the actions the caller may take; its notification webhooks and their delivery log. */
export function WorkspacePage({ workspaceId }: { workspaceId: string }) {
  const workspace = usePoll<PublicWorkspace>(`/v1/workspaces/${workspaceId}`);
  // Every page of each list: a workspace may hold more than the API's 100 a page.
  const scope = `workspaceIds=${workspaceId}`;
  const sources = usePoll<PublicSourceList>(`/v1/sources?${scope}`, EVERY_MS, readAllPages);
  const destinations = usePoll<PublicDestinationList>(`/v1/destinations?${scope}`, EVERY_MS, readAllPages);
  const connections = usePoll<PublicConnectionList>(`/v1/connections?${scope}`, EVERY_MS, readAllPages);
  const reauthorize = usePoll<PublicSourceList>(`/v1/workspaces/${workspaceId}/sources_needing_reauthorization`, EVERY_MS);
  const needing = new Set(reauthorize.data?.data.map((source) => source.sourceId));
  const canEdit = useCan('edit', workspaceId);
  const nameOf = (id: string, list: Array<{ name: string } & Record<string, unknown>> | undefined, key: string) =>
    list?.find((item) => item[key] === id)?.name ?? id;
  return html`<h1 tabindex="-1">${workspace.data?.name ?? 'Workspace'}</h1>
    <${ErrorNote} error=${workspace.error} />
    <nav aria-label="Workspace" class="actions">
      <a href=${href('workspaces', workspaceId, 'end-users')}>End users</a>
      <a href=${href('workspaces', workspaceId, 'search')}>Search playground</a>
    </nav>
    <section aria-labelledby="sources-heading">
      <h2 id="sources-heading">Sources</h2>
      ${canEdit && html`<${AddPanel} label="Add a source" onAdded=${sources.reload}>${(done: () => void) => html`<${SourceForm} workspaceId=${workspaceId} onDone=${done} />`}<//>`}
      <${ErrorNote} error=${sources.error} />
      ${!sources.data && !sources.error && html`<${Loading} what="sources" />`}
      ${sources.data?.data.length === 0 && html`<${Empty}>No source yet: create one to read a connector's data.<//>`}
      <ul class="cards">
        ${sources.data?.data.map(
          (source) => html`<${SourceCard} key=${source.sourceId} source=${source} needsReauthorization=${needing.has(source.sourceId)} />`,
        )}
      </ul>
    </section>
    <section aria-labelledby="destinations-heading">
      <h2 id="destinations-heading">Destinations</h2>
      ${
        canEdit &&
        html`<${AddPanel} label="Add a destination" onAdded=${destinations.reload}>${(done: () => void) => html`<${DestinationForm} workspaceId=${workspaceId} onDone=${done} />`}<//>`
      }
      <${ErrorNote} error=${destinations.error} />
      ${destinations.data?.data.length === 0 && html`<${Empty}>No destination yet: create one to receive synced tables.<//>`}
      <ul class="cards">
        ${destinations.data?.data.map(
          (destination) =>
            html`<li key=${destination.destinationId}><strong>${destination.name}</strong> <span class="muted">${destination.destinationType}</span></li>`,
        )}
      </ul>
    </section>
    <section aria-labelledby="connections-heading">
      <h2 id="connections-heading">Connections</h2>
      ${
        canEdit &&
        html`<${AddPanel} label="Add a connection" onAdded=${connections.reload}>
        ${(done: () => void) => html`<${ConnectionForm} sources=${sources.data?.data ?? []} destinations=${destinations.data?.data ?? []} onDone=${done} />`}
      <//>`
      }
      <${ErrorNote} error=${connections.error} />
      ${connections.data?.data.length === 0 && html`<${Empty}>No connection yet: connect a source to a destination to sync it.<//>`}
      <ul class="cards">
        ${connections.data?.data.map(
          (connection) => html`<${ConnectionRow}
            key=${connection.connectionId}
            connection=${connection}
            sourceName=${nameOf(connection.sourceId, sources.data?.data as never, 'sourceId')}
            destinationName=${nameOf(connection.destinationId, destinations.data?.data as never, 'destinationId')}
            onChanged=${connections.reload}
          />`,
        )}
      </ul>
    </section>
    ${workspace.data && html`<${WorkspaceNotifications} workspace=${workspace.data} onChanged=${workspace.reload} />`}`;
}
