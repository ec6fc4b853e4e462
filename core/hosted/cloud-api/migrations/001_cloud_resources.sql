-- The public cloud API's sources, destinations and connections. A configuration is stored encrypted
-- whole (key_id + ciphertext): it holds the secrets, and answers show it masked. Times are epoch ms.

CREATE TABLE cloud_sources (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  -- The sourceType the source was created with (slack, chat...), resolved to a connector type on use.
  type TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX cloud_sources_listed ON cloud_sources (organization_id, created_at, id);
CREATE INDEX cloud_sources_by_workspace ON cloud_sources (workspace_id);

CREATE TABLE cloud_destinations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX cloud_destinations_listed ON cloud_destinations (organization_id, created_at, id);
CREATE INDEX cloud_destinations_by_workspace ON cloud_destinations (workspace_id);

CREATE TABLE cloud_connections (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  source_id TEXT NOT NULL REFERENCES cloud_sources (id),
  destination_id TEXT NOT NULL REFERENCES cloud_destinations (id),
  status TEXT NOT NULL,
  -- JSON: {scheduleType: manual | cron, cronExpression?}.
  schedule TEXT NOT NULL,
  prefix TEXT NOT NULL,
  -- JSON: [{name, syncMode}], the streams selected.
  streams TEXT NOT NULL,
  namespace_definition TEXT NOT NULL,
  namespace_format TEXT,
  non_breaking_changes TEXT NOT NULL,
  -- When the cron schedule next fires (active cron connections only; else NULL).
  next_run_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX cloud_connections_listed ON cloud_connections (organization_id, created_at, id);
CREATE INDEX cloud_connections_by_workspace ON cloud_connections (workspace_id);
CREATE INDEX cloud_connections_by_source ON cloud_connections (source_id);
CREATE INDEX cloud_connections_by_destination ON cloud_connections (destination_id);
CREATE INDEX cloud_connections_due ON cloud_connections (next_run_at);
