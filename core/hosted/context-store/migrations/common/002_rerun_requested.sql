-- A change to a connector's credentials or settings while its replication runs: that run finishes,
-- then another starts at once with the new ones (instead of waiting for the schedule).
ALTER TABLE replication_jobs ADD COLUMN rerun_requested INTEGER NOT NULL DEFAULT 0;
