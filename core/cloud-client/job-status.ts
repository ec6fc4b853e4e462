import { CloudError } from './errors.ts';

/** A sync job's status (the public API's JobStatusEnum); the values are the API's lowercase spellings. */
export enum JobStatus {
  CANCELLED = 'cancelled',
  FAILED = 'failed',
  INCOMPLETE = 'incomplete',
  PENDING = 'pending',
  RUNNING = 'running',
  SUCCEEDED = 'succeeded',
}

/** A job in one of these will not change again. INCOMPLETE is not one: another attempt follows. */
export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set([JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED]);
/** A job that ended in one of these did not sync. */
export const FAILED_STATUSES: ReadonlySet<JobStatus> = new Set([JobStatus.FAILED, JobStatus.CANCELLED]);

/** The API's status (any case); `queued`, which some servers answer before `pending`, is PENDING. */
export function jobStatusFromApi(status: string): JobStatus {
  const value = status.toLowerCase();
  if (value === 'queued') return JobStatus.PENDING;
  const known = Object.values(JobStatus).find((candidate) => candidate === value);
  if (!known) throw new CloudError(`unknown job status ${JSON.stringify(status)}`);
  return known;
}
