-- One connector per workspace, external user and connector type: a retried create finds the first one
-- instead of making a second, and the hosted client's look-up is never ambiguous. Connectors made
-- before the rule that share a key keep working by id: all but the oldest get their own id appended
-- to external_user_id (nothing is deleted), so the unique index can be built.
UPDATE connectors SET external_user_id = external_user_id || '#' || id
WHERE EXISTS (
  SELECT 1 FROM connectors AS older
  WHERE older.workspace_id = connectors.workspace_id
    AND older.external_user_id = connectors.external_user_id
    AND older.connector_type = connectors.connector_type
    AND (older.created_at < connectors.created_at OR (older.created_at = connectors.created_at AND older.id < connectors.id))
);
DROP INDEX connectors_by_user;
CREATE UNIQUE INDEX connectors_by_user ON connectors (workspace_id, external_user_id, connector_type);

-- Failed application-token attempts per client id and per address (rate-limiter-flexible's table
-- layout), so every instance sharing the database counts the same failures.
CREATE TABLE credential_attempts (
  key VARCHAR(255) PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire BIGINT
);
