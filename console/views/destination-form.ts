import { createActor, Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { ErrorNote } from '../states.ts';

const TYPES = ['sqlite', 'duckdb', 'postgres'];

/** A new destination of the workspace: name, type, and the type's fields as JSON. */
export function DestinationForm({ workspaceId, onDone }: { workspaceId: string; onDone: () => void }) {
  const { busy, error, onSubmit } = useSubmit(async (fields) => {
    await createActor('destination', workspaceId, fields, String(fields.get('type')));
    onDone();
  });
  return html`<form class="panel" onSubmit=${onSubmit} aria-labelledby="new-destination-heading">
    <h3 id="new-destination-heading">New destination</h3>
    <${Field} id="destination-name" label="Destination name"><input id="destination-name" name="name" required /><//>
    <${Field} id="destination-type" label="Destination type">
      <select id="destination-type" name="type">${TYPES.map((name) => html`<option value=${name}>${name}</option>`)}</select>
    <//>
    <${Field} id="destination-configuration" label="Destination configuration (JSON)" hint="SQLite needs nothing more; PostgreSQL its host, database and user.">
      <textarea id="destination-configuration" name="configuration" rows="3" aria-describedby="destination-configuration-hint">{}</textarea>
    <//>
    <${ErrorNote} error=${error} />
    <button type="submit" disabled=${busy}>Create destination</button>
  </form>`;
}
