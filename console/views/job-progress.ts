import type { PublicJobProgress } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { ErrorNote } from '../states.ts';
import { ThroughputChart } from './throughput-chart.ts';

const LIVE_EVERY_MS = 1_000;

/** A sync's progress against the previous run of its connection, and its throughput chart; read each second while it runs. */
export function JobProgress({ jobId, live }: { jobId: string; live: boolean }) {
  const progress = usePoll<PublicJobProgress>(`/v1/jobs/${jobId}/progress`, live ? LIVE_EVERY_MS : 0);
  const data = progress.data;
  if (!data) return html`<${ErrorNote} error=${progress.error} />`;
  const records = data.samples.at(-1)?.records ?? 0;
  const previous = data.previousRun;
  return html`<section aria-labelledby="progress-heading">
    <h2 id="progress-heading">Progress</h2>
    ${
      previous
        ? html`<p>
          <label for="progress-bar">${records.toLocaleString()} of ${previous.records.toLocaleString()} records written by the previous run (job ${previous.jobId}, ${Math.round(previous.durationSeconds)} s)</label>
          <progress id="progress-bar" max=${Math.max(previous.records, records)} value=${records}></progress>
        </p>`
        : html`<p>${records.toLocaleString()} records written; no earlier successful run of this connection to compare with.</p>`
    }
    ${data.samples.length > 1 ? html`<${ThroughputChart} samples=${data.samples} />` : html`<p class="muted">The chart starts with the first records written.</p>`}
  </section>`;
}
