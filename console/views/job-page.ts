import { html } from '../html.ts';
import { LIVE, useJobInfo } from '../job-reader.ts';
import { href } from '../route.ts';
import { ErrorNote, Loading, StatusBadge } from '../states.ts';
import { JobProgress } from './job-progress.ts';

/** A job: its attempts with their counts and failures, and their logs, each new line read once while it runs. */
export function JobPage({ jobId }: { jobId: string }) {
  const { info, logs, error } = useJobInfo(jobId);
  const job = info?.job;
  return html`<h1 tabindex="-1">Job ${jobId}</h1>
    <p><a href=${href('jobs')}>All jobs</a></p>
    <${ErrorNote} error=${error} />
    ${!info && !error && html`<${Loading} what="the job" />`}
    ${
      job &&
      html`<dl class="facts">
      <dt>Status</dt><dd><${StatusBadge} status=${job.status} /></dd>
      <dt>Type</dt><dd>${job.configType}</dd>
      <dt>Records</dt><dd data-testid="records">${(job.aggregatedStats?.recordsCommitted ?? 0).toLocaleString()}</dd>
      <dt>Bytes</dt><dd>${(job.aggregatedStats?.bytesCommitted ?? 0).toLocaleString()}</dd>
    </dl>`
    }
    ${job && job.configType !== 'reset_connection' && html`<${JobProgress} jobId=${jobId} live=${LIVE.has(job.status)} />`}
    ${info?.attempts.map(
      ({ attempt }, index) => html`<section key=${attempt.id} aria-labelledby=${`attempt-${attempt.id}`}>
        <h2 id=${`attempt-${attempt.id}`}>Attempt ${index + 1} <${StatusBadge} status=${attempt.status} /></h2>
        ${attempt.failureSummary?.failures.map((failure) => html`<p class="error">${failure.failureOrigin ?? 'unknown'}: ${failure.externalMessage ?? ''}</p>`)}
        <h3>Logs</h3>
        <pre class="logs" tabindex="0" aria-label=${`Logs of attempt ${index + 1}`} data-lines=${logs[index]?.length ?? 0}>${(logs[index] ?? []).join('\n') || 'No log line yet.'}</pre>
      </section>`,
    )}`;
}
