-- A job's totals as each progress save left them (at most one a second): the console plots its throughput from them.
CREATE TABLE sync_progress_samples (
  job_id BIGINT NOT NULL REFERENCES sync_jobs (id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  rows_synced BIGINT NOT NULL,
  bytes_synced BIGINT NOT NULL
);
CREATE INDEX sync_progress_samples_by_job ON sync_progress_samples (job_id, at);
