import type { PublicConnection } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { href } from '../route.ts';
import { StatusBadge } from '../states.ts';
import { ConnectionActions, scheduleOf } from './connection-actions.ts';
import { StreamList } from './stream-list.ts';

interface Props {
  connection: PublicConnection;
  sourceName: string;
  destinationName: string;
  onChanged: () => void;
}

/** One connection in its workspace's list: its streams, sync modes and schedule, its page, and the buttons its caller's permissions allow. */
export function ConnectionRow({ connection, sourceName, destinationName, onChanged }: Props) {
  return html`<li class="connection">
    <div class="row-head">
      <a href=${href('connections', connection.connectionId)}><strong>${connection.name}</strong></a>
      <${StatusBadge} status=${connection.status === 'active' ? 'enabled' : 'disabled'} />
    </div>
    <p class="muted">${sourceName} → ${destinationName} · schedule: ${scheduleOf(connection)}</p>
    <details>
      <summary>${connection.configurations.streams?.length ?? 0} streams</summary>
      <${StreamList} connection=${connection} />
    </details>
    <${ConnectionActions} connection=${connection} onChanged=${onChanged} />
  </li>`;
}
