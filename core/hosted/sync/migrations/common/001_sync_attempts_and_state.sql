-- One live job per connection: a second sync waits for none, it is refused.
CREATE UNIQUE INDEX sync_jobs_one_live ON sync_jobs (connection_id) WHERE status IN ('pending', 'running', 'incomplete');
CREATE INDEX sync_jobs_by_connection ON sync_jobs (connection_id, id);
CREATE INDEX sync_jobs_runnable ON sync_jobs (status, next_attempt_at);

CREATE TABLE sync_attempts (
  job_id BIGINT NOT NULL REFERENCES sync_jobs (id) ON DELETE CASCADE,
  attempt_number INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT,
  rows_synced BIGINT NOT NULL DEFAULT 0,
  bytes_synced BIGINT NOT NULL DEFAULT 0,
  failure TEXT,
  log TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (job_id, attempt_number)
);

-- Saved only after the records it vouches for are written to the destination.
CREATE TABLE sync_state (
  connection_id TEXT NOT NULL,
  stream TEXT NOT NULL,
  state TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (connection_id, stream)
);
