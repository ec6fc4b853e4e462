import { useEffect, useState } from 'preact/hooks';
import type { ConfigJobInfo } from '../../core/hosted/types.generated.ts';
import { type ApiError, call } from '../api.ts';
import { html } from '../html.ts';
import { href } from '../route.ts';
import { ErrorNote, Loading, StatusBadge } from '../states.ts';
import { JobProgress } from './job-progress.ts';

const LIVE_EVERY_MS = 1_000;
const LIVE = new Set(['pending', 'running', 'incomplete']);

/** A job: its attempts with their counts and failures, and their logs, read again each second until it ends. */
export function JobPage({ jobId }: { jobId: string }) {
  const [info, setInfo] = useState<ConfigJobInfo>();
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const answer = await call<ConfigJobInfo>('POST', '/api/v1/jobs/get', { id: Number(jobId) });
        if (stopped) return;
        setInfo(answer);
        setError(undefined);
        if (!LIVE.has(answer.job.status)) return;
      } catch (failure) {
        if (stopped) return;
        setError(failure as ApiError);
      }
      timer = setTimeout(read, LIVE_EVERY_MS);
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [jobId]);
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
      ({ attempt, logs }, index) => html`<section key=${attempt.id} aria-labelledby=${`attempt-${attempt.id}`}>
        <h2 id=${`attempt-${attempt.id}`}>Attempt ${index + 1} <${StatusBadge} status=${attempt.status} /></h2>
        ${attempt.failureSummary?.failures.map((failure) => html`<p class="error">${failure.failureOrigin ?? 'unknown'}: ${failure.externalMessage ?? ''}</p>`)}
        <h3>Logs</h3>
        <pre class="logs" tabindex="0" aria-label=${`Logs of attempt ${index + 1}`}>${(logs?.logLines ?? []).join('\n') || 'No log line yet.'}</pre>
      </section>`,
    )}`;
}
