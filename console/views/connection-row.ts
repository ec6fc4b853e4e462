import { useState } from 'preact/hooks';
import type { PublicConnection, PublicJob } from '../../core/hosted/types.generated.ts';
import { type ApiError, call } from '../api.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { href } from '../route.ts';
import { ErrorNote, StatusBadge } from '../states.ts';

interface Props {
  connection: PublicConnection;
  sourceName: string;
  destinationName: string;
  onChanged: () => void;
}

/** One connection: its streams, sync modes and schedule, and the buttons its caller's permissions allow. */
export function ConnectionRow({ connection, sourceName, destinationName, onChanged }: Props) {
  const canRun = useCan('run', connection.workspaceId);
  const canEdit = useCan('edit', connection.workspaceId);
  const [error, setError] = useState<ApiError>();
  const act = async (work: () => Promise<unknown>) => {
    try {
      setError(undefined);
      await work();
      onChanged();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  const runJob = (jobType: PublicJob['jobType']) =>
    act(async () => {
      const job = await call<PublicJob>('POST', '/v1/jobs', { connectionId: connection.connectionId, jobType });
      location.hash = href('jobs', job.jobId);
    });
  const setStatus = (status: 'active' | 'inactive') => act(() => call('PATCH', `/v1/connections/${connection.connectionId}`, { status }));
  const schedule = connection.schedule.scheduleType === 'cron' ? `cron ${connection.schedule.cronExpression ?? ''}` : connection.schedule.scheduleType;
  return html`<li class="connection">
    <div class="row-head">
      <strong>${connection.name}</strong>
      <${StatusBadge} status=${connection.status === 'active' ? 'enabled' : 'disabled'} />
    </div>
    <p class="muted">${sourceName} → ${destinationName} · schedule: ${schedule}</p>
    <details>
      <summary>${connection.configurations.streams?.length ?? 0} streams</summary>
      <ul>
        ${connection.configurations.streams?.map(
          (stream) => html`<li key=${stream.name}>
            <code>${stream.name}</code> ${stream.syncMode ?? ''}
            ${stream.selectedFields?.length ? html` · fields: ${stream.selectedFields.map((field) => field.fieldPath?.join('.')).join(', ')}` : ''}
          </li>`,
        )}
      </ul>
    </details>
    <div class="actions">
      <a href=${href('jobs')}>Jobs</a>
      ${canRun && html`<button type="button" onClick=${() => runJob('sync')}>Run sync of ${connection.name}</button>`}
      ${canRun && html`<button type="button" class="secondary" onClick=${() => runJob('refresh')}>Refresh</button>`}
      ${canRun && html`<button type="button" class="secondary" onClick=${() => runJob('clear')}>Clear</button>`}
      ${
        canEdit &&
        (connection.status === 'active'
          ? html`<button type="button" class="secondary" onClick=${() => setStatus('inactive')}>Disable ${connection.name}</button>`
          : html`<button type="button" class="secondary" onClick=${() => setStatus('active')}>Enable ${connection.name}</button>`)
      }
    </div>
    <${ErrorNote} error=${error} />
  </li>`;
}
