import { useState } from 'preact/hooks';
import type { PublicSource } from '../../core/hosted/types.generated.ts';
import type { ApiError } from '../api.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { startReconnect } from '../reconnect.ts';
import { ErrorNote, StatusBadge } from '../states.ts';

/** One source: its type, and when its OAuth grant is gone, the mark and a Reconnect button for those who may change it. */
export function SourceCard({ source, needsReauthorization }: { source: PublicSource; needsReauthorization: boolean }) {
  const canEdit = useCan('edit', source.workspaceId);
  const [error, setError] = useState<ApiError>();
  return html`<li>
    <div class="row-head">
      <span><strong>${source.name}</strong> <span class="muted">${source.sourceType}</span></span>
      ${needsReauthorization && html`<${StatusBadge} status="needs-reauthorization" />`}
    </div>
    ${
      needsReauthorization &&
      html`<p class="muted">Its account's access was revoked or expired: syncs fail until it is connected again.</p>
      ${canEdit && html`<button type="button" onClick=${() => startReconnect(source).catch(setError)}>Reconnect ${source.name}</button>`}
      <${ErrorNote} error=${error} />`
    }
  </li>`;
}
