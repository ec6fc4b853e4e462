import type { PublicJobList } from '../../core/hosted/types.generated.ts';
import { html } from '../html.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { Empty, ErrorNote, Loading, StatusBadge } from '../states.ts';

const EVERY_MS = 3_000;

/** The organization's jobs, newest first, kept live. */
export function JobList() {
  const jobs = usePoll<PublicJobList>('/v1/jobs?limit=50', EVERY_MS);
  return html`<h1 tabindex="-1">Jobs</h1>
    <${ErrorNote} error=${jobs.error} />
    ${!jobs.data && !jobs.error && html`<${Loading} what="jobs" />`}
    ${jobs.data?.data.length === 0 && html`<${Empty}>No job yet: run a sync from a workspace's connection.<//>`}
    ${
      jobs.data &&
      jobs.data.data.length > 0 &&
      html`<div class="table-wrap"><table>
      <caption class="visually-hidden">Jobs, newest first</caption>
      <thead><tr><th scope="col">Job</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Rows</th><th scope="col">Bytes</th></tr></thead>
      <tbody>
        ${jobs.data.data.map(
          (job) => html`<tr key=${job.jobId}>
            <th scope="row"><a href=${href('jobs', job.jobId)}>Job ${job.jobId}</a></th>
            <td>${job.jobType}</td>
            <td><${StatusBadge} status=${job.status} /></td>
            <td>${new Date(job.startTime).toLocaleString()}</td>
            <td>${job.rowsSynced.toLocaleString()}</td>
            <td>${job.bytesSynced.toLocaleString()}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }`;
}
