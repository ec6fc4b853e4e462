import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { AutoDisableThresholds } from './notification-settings.ts';

const DAY_MS = 24 * 3600 * 1000;

/** A connection's run of failures as of one failed job. Times are epoch ms. */
export interface FailureHistory {
  /** Failed jobs since the last success (cancelled ones neither count nor reset), this one included. */
  consecutiveFailures: number;
  /** The last success's creation; with none, the connection's first job's. */
  since: number;
  /** When the check runs: this job's end. */
  now: number;
  /** The failed job before this one in the run, when there is one. */
  priorFailureAt?: number;
}

export type AutoDisableVerdict = 'disable' | 'warn' | 'none';

/**
 * Airbyte's rule (WarnOrDisableConnectionHelper), checked after each failed job of an active
 * connection: disable once both the failures in a row and the whole days without a success reach
 * their marks; else warn, once, on the failure that first reaches both warning marks (the prior failed
 * job did not already reach them).
 */
export function autoDisableVerdict(history: FailureHistory, t: AutoDisableThresholds): AutoDisableVerdict {
  const daysTo = (at: number) => Math.floor((at - history.since) / DAY_MS);
  const failures = history.consecutiveFailures;
  if (failures >= t.failedJobs && daysTo(history.now) >= t.days) return 'disable';
  if (history.priorFailureAt === undefined) return 'none';
  const due = failures >= t.warningFailedJobs && daysTo(history.now) >= t.warningDays;
  const dueBefore = failures - 1 >= t.warningFailedJobs && daysTo(history.priorFailureAt) >= t.warningDays;
  return due && !dueBefore ? 'warn' : 'none';
}

/** The history as of failed job `jobId` of the connection (jobs are numbered in the order they were made). */
export async function failureHistory(db: SqlDriver, connectionId: string, jobId: number, now: number): Promise<FailureHistory> {
  const success = await db.get<{ id: number | string; created_at: string }>(
    "SELECT id, created_at FROM sync_jobs WHERE connection_id = ? AND status = 'succeeded' AND id < ? ORDER BY id DESC LIMIT 1",
    [connectionId, jobId],
  );
  const after = success ? Number(success.id) : 0;
  const run = await db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM sync_jobs WHERE connection_id = ? AND status = 'failed' AND id > ? AND id <= ?", [
    connectionId,
    after,
    jobId,
  ]);
  const prior = await db.get<{ created_at: string }>(
    "SELECT created_at FROM sync_jobs WHERE connection_id = ? AND status = 'failed' AND id > ? AND id < ? ORDER BY id DESC LIMIT 1",
    [connectionId, after, jobId],
  );
  const first = success
    ? undefined
    : await db.get<{ created_at: string }>('SELECT MIN(created_at) AS created_at FROM sync_jobs WHERE connection_id = ?', [connectionId]);
  return {
    consecutiveFailures: Number(run?.n ?? 0),
    since: Date.parse(success?.created_at ?? first?.created_at ?? new Date(now).toISOString()),
    now,
    ...(prior ? { priorFailureAt: Date.parse(prior.created_at) } : {}),
  };
}

/**
 * Sets the connection inactive (no more scheduled runs), as Airbyte does with reason
 * TOO_MANY_FAILED_JOBS_WITH_NO_RECENT_SUCCESS; false when it already was (a user switched it off meanwhile).
 */
export async function disableConnection(tx: SqlDriver, connectionId: string): Promise<boolean> {
  const { changes } = await tx.run("UPDATE cloud_connections SET status = 'inactive', next_run_at = NULL WHERE id = ? AND status = 'active'", [connectionId]);
  return changes === 1;
}
