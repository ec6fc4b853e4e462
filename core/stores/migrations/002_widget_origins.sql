-- Origins of widget tokens, so that CORS preflights (which carry no token) are answered on every
-- instance, and after a restart, for exactly the origins a live widget token was issued for.
-- One row per workspace and origin (a workspace belongs to one organization): issuing again for the
-- same origin extends expires_at (the scoped token's exp). Expired rows are pruned when rows are written.
CREATE TABLE widget_origins (
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  origin TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, origin)
);
-- The preflight look-up (one origin, still live) and the prune (expired) are each one index range.
CREATE INDEX widget_origins_by_origin ON widget_origins (origin, expires_at);
CREATE INDEX widget_origins_by_expiry ON widget_origins (expires_at);
