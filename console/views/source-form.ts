import { useState } from 'preact/hooks';
import { createActor, Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { ErrorNote } from '../states.ts';

/** Starting configurations by type: the fields each needs, for the user to fill in. */
const TEMPLATES: Record<string, object> = {
  slack: {
    credentials: { option_title: 'API Token Credentials', api_token: '' },
    start_date: '2024-01-01T00:00:00Z',
    lookback_window: 0,
    join_channels: false,
  },
  chat: { credentials: { token: '' } },
  'google-drive': { credentials: { auth_type: 'Client', client_id: '', client_secret: '', refresh_token: '' }, folder_url: '' },
  'file-storage': { credentials: { token: '' } },
};

/** A new source of the workspace: name, type, and its configuration as JSON (the API checks it, and its 422 shows here). */
export function SourceForm({ workspaceId, onDone }: { workspaceId: string; onDone: () => void }) {
  const [type, setType] = useState('slack');
  const { busy, error, onSubmit } = useSubmit(async (fields) => {
    await createActor('source', workspaceId, fields, type);
    onDone();
  });
  return html`<form class="panel" onSubmit=${onSubmit} aria-labelledby="new-source-heading">
    <h3 id="new-source-heading">New source</h3>
    <${Field} id="source-name" label="Source name"><input id="source-name" name="name" required /><//>
    <${Field} id="source-type" label="Source type">
      <select id="source-type" value=${type} onChange=${(event: Event) => setType((event.target as HTMLSelectElement).value)}>
        ${Object.keys(TEMPLATES).map((name) => html`<option value=${name}>${name}</option>`)}
      </select>
    <//>
    <${Field} id="source-configuration" label="Source configuration (JSON)" hint="The type's fields; secrets are stored encrypted and masked in every answer.">
      <textarea id="source-configuration" name="configuration" rows="6" aria-describedby="source-configuration-hint" key=${type}>${JSON.stringify(TEMPLATES[type], null, 2)}</textarea>
    <//>
    <${ErrorNote} error=${error} />
    <button type="submit" disabled=${busy}>Create source</button>
  </form>`;
}
