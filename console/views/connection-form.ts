import type { PublicDestination, PublicSource, PublicStreamConfiguration } from '../../core/hosted/types.generated.ts';
import { call } from '../api.ts';
import { Field, useSubmit } from '../forms.ts';
import { html } from '../html.ts';
import { ErrorNote } from '../states.ts';

const SYNC_MODES: Array<NonNullable<PublicStreamConfiguration['syncMode']>> = [
  'full_refresh_overwrite',
  'full_refresh_append',
  'incremental_append',
  'incremental_deduped_history',
];

interface Props {
  sources: PublicSource[];
  destinations: PublicDestination[];
  onDone: () => void;
}

/** A new connection: a source and a destination of the workspace, the streams it syncs and how, and its schedule. */
export function ConnectionForm({ sources, destinations, onDone }: Props) {
  const { busy, error, onSubmit } = useSubmit(async (fields) => {
    const syncMode = String(fields.get('syncMode')) as PublicStreamConfiguration['syncMode'];
    const streams = String(fields.get('streams'))
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => ({ name, syncMode }));
    const cron = String(fields.get('cron') ?? '').trim();
    await call('POST', '/v1/connections', {
      name: String(fields.get('name')),
      sourceId: String(fields.get('sourceId')),
      destinationId: String(fields.get('destinationId')),
      ...(streams.length > 0 ? { configurations: { streams } } : {}),
      schedule: cron ? { scheduleType: 'cron', cronExpression: cron } : { scheduleType: 'manual' },
    });
    onDone();
  });
  return html`<form class="panel" onSubmit=${onSubmit} aria-labelledby="new-connection-heading">
    <h3 id="new-connection-heading">New connection</h3>
    <${Field} id="connection-name" label="Connection name"><input id="connection-name" name="name" required /><//>
    <${Field} id="connection-source" label="From source">
      <select id="connection-source" name="sourceId" required>${sources.map((source) => html`<option value=${source.sourceId}>${source.name}</option>`)}</select>
    <//>
    <${Field} id="connection-destination" label="To destination">
      <select id="connection-destination" name="destinationId" required>
        ${destinations.map((destination) => html`<option value=${destination.destinationId}>${destination.name}</option>`)}
      </select>
    <//>
    <${Field} id="connection-streams" label="Streams" hint="Names separated by commas; empty: every stream of the source.">
      <input id="connection-streams" name="streams" aria-describedby="connection-streams-hint" />
    <//>
    <${Field} id="connection-mode" label="Sync mode">
      <select id="connection-mode" name="syncMode">${SYNC_MODES.map((mode) => html`<option value=${mode}>${mode.replaceAll('_', ' ')}</option>`)}</select>
    <//>
    <${Field} id="connection-cron" label="Schedule (Quartz cron, optional)" hint="Empty: manual, run from this console or the API.">
      <input id="connection-cron" name="cron" aria-describedby="connection-cron-hint" />
    <//>
    <${ErrorNote} error=${error} />
    <button type="submit" disabled=${busy}>Create connection</button>
  </form>`;
}
