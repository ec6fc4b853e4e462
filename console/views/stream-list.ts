import type { PublicConnection } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';

/** A connection's streams: each one's sync mode, and its selected fields when it narrows them. */
export function StreamList({ connection }: { connection: PublicConnection }) {
  const streams = connection.configurations.streams ?? [];
  if (streams.length === 0) return html`<p class="muted">Every stream of the source, in its default mode.</p>`;
  return html`<ul class="streams">
    ${streams.map(
      (stream) => html`<li key=${stream.name}>
        <code>${stream.name}</code> ${stream.syncMode?.replaceAll('_', ' ') ?? ''}
        ${stream.selectedFields?.length ? html` · fields: ${stream.selectedFields.map((field) => field.fieldPath?.join('.')).join(', ')}` : ' · all fields'}
      </li>`,
    )}
  </ul>`;
}
