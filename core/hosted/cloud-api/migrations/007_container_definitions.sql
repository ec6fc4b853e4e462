-- Custom source and destination definitions that name a Docker image (the public API's
-- definitions): kept and listed in their workspace, as Airbyte keeps them, though Plugboard runs no
-- containers (a source or destination of one is refused). Times are epoch ms.

CREATE TABLE cloud_container_definitions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  -- source or destination.
  actor_type TEXT NOT NULL,
  name TEXT NOT NULL,
  docker_repository TEXT NOT NULL,
  docker_image_tag TEXT NOT NULL,
  documentation_url TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX cloud_container_definitions_listed ON cloud_container_definitions (workspace_id, actor_type, created_at, id);
