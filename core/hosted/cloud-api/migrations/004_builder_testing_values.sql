-- The testing values of declarative definitions' connector builder projects (the config API's
-- update_testing_values), one row per definition: encrypted whole (key_id + ciphertext), as source
-- configurations are, since they hold secrets. Times are epoch ms.

CREATE TABLE cloud_builder_testing_values (
  definition_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX cloud_builder_testing_values_by_workspace ON cloud_builder_testing_values (workspace_id);
