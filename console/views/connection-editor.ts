import type { PublicConnection } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { useConnectionSettings } from '../connection-settings.ts';
import { useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { ErrorNote } from '../states.ts';
import { ConnectionSettingsFields, unplacedError } from './connection-settings-fields.ts';

/** A connection's streams, their sync modes and fields, and its schedule, changed with PATCH /v1/connections/{id}. */
export function ConnectionEditor({ connection, onSaved, onCancel }: { connection: PublicConnection; onSaved: () => void; onCancel: () => void }) {
  const settings = useConnectionSettings(connection.sourceId, connection.destinationId, connection);
  const { busy, error, onSubmit } = useSubmit(async () => {
    await call('PATCH', `/v1/connections/${connection.connectionId}`, settings.body());
    onSaved();
  });
  return html`<form class="panel wide" onSubmit=${onSubmit} aria-labelledby="edit-connection-heading">
    <h3 id="edit-connection-heading">Edit streams and schedule</h3>
    <${ConnectionSettingsFields} idPrefix="edit-connection" settings=${settings} error=${error} />
    <${ErrorNote} error=${unplacedError(error)} />
    <div class="actions">
      <button type="submit" disabled=${busy}>Save ${connection.name}</button>
      <button type="button" class="secondary" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}
