-- Tags a workspace groups its connections by (the public API's tags): a name unique in the workspace
-- (at most 30 characters), a hex color (RRGGBB, no #). Times are epoch ms.

CREATE TABLE cloud_tags (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX cloud_tags_name ON cloud_tags (workspace_id, name);
CREATE INDEX cloud_tags_listed ON cloud_tags (organization_id, created_at, id);

-- The tags a connection carries. A deleted connection keeps its rows (its tombstone is listed with
-- them, and found by them); a tag's rows go with the tag, a workspace's with the workspace.
CREATE TABLE cloud_connection_tags (
  connection_id TEXT NOT NULL,
  tag_id TEXT NOT NULL,
  PRIMARY KEY (connection_id, tag_id)
);
CREATE INDEX cloud_connection_tags_by_tag ON cloud_connection_tags (tag_id);
