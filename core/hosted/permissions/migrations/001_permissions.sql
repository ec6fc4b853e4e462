-- Users and their permissions (Airbyte's permission types). A user is an application: enrolled once,
-- when it is made (or, for those made before permissions, at the first start that has them) with
-- organization_admin; an enrolled user is never enrolled again, whatever its permissions become.
-- Times are epoch ms.

CREATE TABLE permission_users (
  user_id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  enrolled_at BIGINT NOT NULL
);

-- workspace_id NULL: an organization (or instance) permission. One permission per user and scope.
CREATE TABLE permissions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  workspace_id TEXT,
  permission_type TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX permissions_scope ON permissions (user_id, COALESCE(workspace_id, ''));
CREATE INDEX permissions_listed ON permissions (organization_id, created_at, id);
CREATE INDEX permissions_of_workspace ON permissions (workspace_id);
