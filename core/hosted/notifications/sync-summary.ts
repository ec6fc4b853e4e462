/** A workspace, connection, source or destination as a message names it: its id, name and page. */
export interface NamedLink {
  id: string;
  name: string;
  url: string;
}

/**
 * Airbyte's SyncSummary as its webhooks carry it in `data` (airbyte-notification SyncSummary.kt,
 * serialised by Jackson): every key present, nulls included, in the getter order, times as ISO-8601
 * whole seconds, and the computed `*Formatted` values.
 */
export interface SyncSummary {
  workspace: NamedLink;
  connection: NamedLink;
  source: NamedLink;
  destination: NamedLink;
  jobId: number;
  success: boolean;
  startedAt: string | null;
  finishedAt: string | null;
  bytesEmitted: number;
  bytesCommitted: number;
  recordsEmitted: number;
  recordsCommitted: number;
  recordsFilteredOut: number;
  bytesFilteredOut: number;
  errorMessage: string | null;
  errorType: string | null;
  errorOrigin: string | null;
  durationInSeconds: number | null;
  durationFormatted: string | null;
  bytesEmittedFormatted: string;
  bytesCommittedFormatted: string;
}

export interface SyncOutcome {
  jobId: number;
  success: boolean;
  /** Epoch ms. */
  startedAt: number;
  finishedAt: number;
  rows: number;
  bytes: number;
  error?: { message: string; type: string | null; origin: string | null };
}

/**
 * The summary of a job's end. Plugboard counts what reached the destination: emitted and committed
 * are the same, and nothing is filtered out.
 */
export function syncSummary(links: Pick<SyncSummary, 'workspace' | 'connection' | 'source' | 'destination'>, outcome: SyncOutcome): SyncSummary {
  const started = Math.floor(outcome.startedAt / 1000);
  const finished = Math.floor(outcome.finishedAt / 1000);
  const duration = Math.max(0, finished - started);
  return {
    ...links,
    jobId: outcome.jobId,
    success: outcome.success,
    startedAt: isoSeconds(started),
    finishedAt: isoSeconds(finished),
    bytesEmitted: outcome.bytes,
    bytesCommitted: outcome.bytes,
    recordsEmitted: outcome.rows,
    recordsCommitted: outcome.rows,
    recordsFilteredOut: 0,
    bytesFilteredOut: 0,
    errorMessage: outcome.error?.message ?? null,
    errorType: outcome.error?.type ?? null,
    errorOrigin: outcome.error?.origin ?? null,
    durationInSeconds: duration,
    durationFormatted: formatDuration(duration),
    bytesEmittedFormatted: formatVolume(outcome.bytes),
    bytesCommittedFormatted: formatVolume(outcome.bytes),
  };
}

/** As Java's Instant prints whole seconds: `2024-01-01T00:00:00Z`. */
function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Airbyte's formatDuration, its last branch included (days, then the total hours, not those past the days). */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} sec`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} sec`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} hours ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} days ${Math.floor(seconds / 3600)} hours`;
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Airbyte's formatVolume: whole divisions by 1024 up to TB (159341141 → `151 MB`). */
export function formatVolume(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value = Math.floor(value / 1024);
    unit++;
  }
  return `${value} ${UNITS[unit]}`;
}
