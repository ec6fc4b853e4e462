import { useState } from 'preact/hooks';
import type { PublicConnection, PublicJobList } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { Empty, ErrorNote, Loading, StatusBadge } from '../states.ts';
import { TwoSeriesChart } from '../two-series-chart.ts';
import { ConnectionActions, scheduleOf } from './connection-actions.ts';
import { ConnectionEditor } from './connection-editor.ts';
import { StreamList } from './stream-list.ts';

const EVERY_MS = 10_000;
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** `PT1H2M3S` (how the API gives a job's duration) in seconds. */
function durationSeconds(iso: string): number {
  const [, h = '0', m = '0', s = '0'] = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(iso) ?? [];
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** A connection: its streams and schedule, its actions, and its history: each finished run's duration and records, plotted, and its jobs. */
export function ConnectionPage({ connectionId }: { connectionId: string }) {
  const connection = usePoll<PublicConnection>(`/v1/connections/${connectionId}`, EVERY_MS);
  // The newest 100 jobs, plotted oldest first.
  const jobs = usePoll<PublicJobList>(`/v1/jobs?connectionId=${connectionId}&limit=100&orderBy=createdAt|DESC`, EVERY_MS);
  const runs = (jobs.data?.data ?? []).filter((job) => job.jobType !== 'reset' && job.jobType !== 'clear' && ENDED.has(job.status)).reverse();
  const found = connection.data;
  const canEdit = useCan('edit', found?.workspaceId);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const edit = (open: boolean) => {
    setEditing(open);
    setSaved(false);
  };
  const onSaved = () => {
    setEditing(false);
    setSaved(true);
    connection.reload();
  };
  return html`<h1 tabindex="-1">${found?.name ?? 'Connection'}</h1>
    <${ErrorNote} error=${connection.error} />
    ${!found && !connection.error && html`<${Loading} what="the connection" />`}
    ${
      found &&
      html`<p><a href=${href('workspaces', found.workspaceId)}>Back to the workspace</a></p>
      <dl class="facts">
        <dt>Status</dt><dd><${StatusBadge} status=${found.status === 'active' ? 'enabled' : 'disabled'} /></dd>
        <dt>Schedule</dt><dd>${scheduleOf(found)}</dd>
        <dt>Table prefix</dt><dd>${found.prefix || 'none'}</dd>
      </dl>
      <h2>Streams</h2>
      ${saved && html`<p class="notice" role="status">The streams and schedule of ${found.name} are saved.</p>`}
      ${
        editing
          ? html`<${ConnectionEditor} connection=${found} onSaved=${onSaved} onCancel=${() => edit(false)} />`
          : html`<${StreamList} connection=${found} />
            ${canEdit && html`<button type="button" class="secondary" onClick=${() => edit(true)}>Edit streams and schedule of ${found.name}</button>`}`
      }
      <${ConnectionActions} connection=${found} onChanged=${connection.reload} />`
    }
    <h2>History</h2>
    <${ErrorNote} error=${jobs.error} />
    ${jobs.data && runs.length === 0 && html`<${Empty}>No finished run yet: run a sync, and each run's duration and records show here.<//>`}
    ${
      runs.length > 0 &&
      html`<${TwoSeriesChart}
      id="history"
      caption="Duration and records per run"
      xLabel="run"
      x=${runs.map((_, index) => index + 1)}
      series=${[
        { label: 'seconds', values: runs.map((job) => durationSeconds(job.duration)) },
        { label: 'records', values: runs.map((job) => job.rowsSynced) },
      ]}
    />
    <ul>
      ${[...runs]
        .reverse()
        .map(
          (job) =>
            html`<li key=${job.jobId}><a href=${href('jobs', job.jobId)}>Job ${job.jobId}</a> <${StatusBadge} status=${job.status} /> ${job.rowsSynced.toLocaleString()} records in ${durationSeconds(job.duration)} s</li>`,
        )}
    </ul>`
    }`;
}
