-- Deleted sources, destinations and connections (`includeDeleted` lists them; nothing else sees
-- them): each as the API answered it when it was deleted, secrets masked, sealed whole (key_id +
-- ciphertext) as configurations are, since a masked configuration still names hosts and accounts.
-- Times are epoch ms.

CREATE TABLE cloud_tombstones (
  id TEXT PRIMARY KEY,
  -- source, destination or connection.
  kind TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  deleted_at BIGINT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL
);
CREATE INDEX cloud_tombstones_listed ON cloud_tombstones (kind, organization_id, created_at, id);
CREATE INDEX cloud_tombstones_by_workspace ON cloud_tombstones (workspace_id);
