import { useState } from 'preact/hooks';
import type { PublicDestination, PublicSource } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { useConnectionSettings } from '../connection-settings.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { ErrorNote } from '../states.ts';
import { ConnectionSettingsFields, unplacedError } from './connection-settings-fields.ts';

interface Props {
  sources: PublicSource[];
  destinations: PublicDestination[];
  onDone: () => void;
}

/** A new connection: a source and a destination of the workspace, which of the source's streams it syncs and how, and its schedule. */
export function ConnectionForm({ sources, destinations, onDone }: Props) {
  // Until one is picked, the first of each list (which may arrive after the form opens).
  const [pickedSource, setSourceId] = useState<string>();
  const [pickedDestination, setDestinationId] = useState<string>();
  const sourceId = pickedSource ?? sources[0]?.sourceId;
  const destinationId = pickedDestination ?? destinations[0]?.destinationId;
  const settings = useConnectionSettings(sourceId, destinationId);
  const { busy, error, onSubmit } = useSubmit(async (fields) => {
    await call('POST', '/v1/connections', { name: String(fields.get('name')), sourceId, destinationId, ...settings.body() });
    onDone();
  });
  const picked = (set: (id: string) => void) => (event: Event) => set((event.target as HTMLSelectElement).value);
  return html`<form class="panel" onSubmit=${onSubmit} aria-labelledby="new-connection-heading">
    <h3 id="new-connection-heading">New connection</h3>
    <${Field} id="connection-name" label="Connection name"><input id="connection-name" name="name" required /><//>
    <${Field} id="connection-source" label="From source">
      <select id="connection-source" value=${sourceId} onChange=${picked(setSourceId)} required>
        ${sources.map((source) => html`<option value=${source.sourceId}>${source.name}</option>`)}
      </select>
    <//>
    <${Field} id="connection-destination" label="To destination">
      <select id="connection-destination" value=${destinationId} onChange=${picked(setDestinationId)} required>
        ${destinations.map((destination) => html`<option value=${destination.destinationId}>${destination.name}</option>`)}
      </select>
    <//>
    <${ConnectionSettingsFields} idPrefix="new-connection" settings=${settings} error=${error} />
    <${ErrorNote} error=${unplacedError(error)} />
    <button type="submit" disabled=${busy}>Create connection</button>
  </form>`;
}
