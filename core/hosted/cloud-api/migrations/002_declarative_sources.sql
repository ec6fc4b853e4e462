-- Custom declarative source definitions: a Plugboard declarative connector manifest (JSON text) a
-- workspace published, run as a connector without code. Times are epoch ms.

CREATE TABLE cloud_declarative_sources (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  -- The manifest's `type`: a source of the workspace may name the definition by it, so it is unique there.
  connector_type TEXT NOT NULL,
  manifest TEXT NOT NULL,
  -- 1 when published, one more at each update; each version registers in the runtime apart.
  version BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX cloud_declarative_sources_type ON cloud_declarative_sources (workspace_id, connector_type);
CREATE INDEX cloud_declarative_sources_listed ON cloud_declarative_sources (workspace_id, created_at, id);
