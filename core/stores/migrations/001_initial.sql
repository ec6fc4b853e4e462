-- Plugboard hosted state. Portable SQL: it runs unchanged on SQLite and PostgreSQL.
-- Timestamps are ISO-8601 UTC text; JSON values are text holding JSON.

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  client_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY,
  alg TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  private_jwk_key_id TEXT NOT NULL,
  private_jwk_ciphertext TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  region_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (organization_id, name)
);

CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  connector_type TEXT NOT NULL,
  tags TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX templates_by_organization ON templates (organization_id, kind, created_at);

CREATE TABLE connectors (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  external_user_id TEXT NOT NULL,
  connector_type TEXT NOT NULL,
  name TEXT NOT NULL,
  auth_type TEXT NOT NULL,
  credentials_key_id TEXT NOT NULL,
  credentials_ciphertext TEXT NOT NULL,
  replication_config TEXT,
  source_template_id TEXT REFERENCES templates (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX connectors_by_user ON connectors (workspace_id, external_user_id, connector_type);
