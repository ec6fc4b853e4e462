-- Jobs asked for as `clear`, the newer name of `reset`: the sync engine runs both alike (its jobs
-- table knows reset only), and answers name each job as it was asked for.

CREATE TABLE cloud_clear_jobs (
  job_id BIGINT PRIMARY KEY
);
