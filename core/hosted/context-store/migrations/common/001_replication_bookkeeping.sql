-- Tables both databases write the same way: replication's bookkeeping beside the records (IF NOT EXISTS: stores made before this file held them already).

-- Characters the indexed words of a text field use: fuzzy search expands words over them.
CREATE TABLE IF NOT EXISTS context_alphabets (
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  slot INTEGER NOT NULL,
  chars TEXT NOT NULL,
  PRIMARY KEY (connector_id, entity, slot)
);

-- Per entity: how far replication got.
CREATE TABLE IF NOT EXISTS context_entities (
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  status TEXT NOT NULL,
  records INTEGER NOT NULL DEFAULT 0,
  synced_at TEXT,
  PRIMARY KEY (connector_id, entity)
);

-- Checkpoints a connector's replication keeps between runs (newest message read per channel).
CREATE TABLE IF NOT EXISTS context_checkpoints (
  connector_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (connector_id, key)
);

-- One replication job per connector: its last run, when it next runs, and who holds it (a lease).
CREATE TABLE IF NOT EXISTS replication_jobs (
  connector_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  error TEXT,
  next_run_at TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until TEXT
);
CREATE INDEX IF NOT EXISTS replication_jobs_due ON replication_jobs (next_run_at);
