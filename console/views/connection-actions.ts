import { useState } from 'preact/hooks';
import type { PublicConnection, PublicJob } from '../../core/hosted/types.generated.ts';
import { type ApiError, call } from '../api.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { href } from '../route.ts';
import { ErrorNote } from '../states.ts';

/** What may be done to a connection, by the caller's permissions: run a sync, refresh, clear (to the new job's page); enable or disable. */
export function ConnectionActions({ connection, onChanged }: { connection: PublicConnection; onChanged: () => void }) {
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
  const { name } = connection;
  return html`<div class="actions">
      ${canRun && html`<button type="button" onClick=${() => runJob('sync')}>Run sync of ${name}</button>`}
      ${canRun && html`<button type="button" class="secondary" onClick=${() => runJob('refresh')}>Refresh ${name}</button>`}
      ${canRun && html`<button type="button" class="secondary" onClick=${() => runJob('clear')}>Clear ${name}</button>`}
      ${
        canEdit &&
        (connection.status === 'active'
          ? html`<button type="button" class="secondary" onClick=${() => setStatus('inactive')}>Disable ${name}</button>`
          : html`<button type="button" class="secondary" onClick=${() => setStatus('active')}>Enable ${name}</button>`)
      }
    </div>
    <${ErrorNote} error=${error} />`;
}

/** A connection's schedule in words. */
export const scheduleOf = (connection: PublicConnection) =>
  connection.schedule.scheduleType === 'cron' ? `cron ${connection.schedule.cronExpression ?? ''}` : connection.schedule.scheduleType;
