-- OAuth apps and the flows that use them. Times are epoch ms; every secret is sealed with the data keys
-- (key_id + ciphertext); states and secret ids are kept as their SHA-256 (base64url), never as given.

-- A tenant's OAuth client for a source type: a workspace's, or its organization's (a workspace's wins).
-- `source_type` is the name it was registered under (slack, chat, declarative-<id>...); `connector_family`
-- what it also serves (slack and chat are both `chat`). The client secret is the ciphertext.
CREATE TABLE oauth_apps (
  owner_kind TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  connector_family TEXT NOT NULL,
  client_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (owner_kind, owner_id, source_type)
);
CREATE INDEX oauth_apps_by_family ON oauth_apps (owner_id, connector_family);

-- A consent in progress: taken once by the callback. `flow` is public_api or embedded (the widget);
-- the ciphertext holds the client's id and secret and the PKCE verifier.
CREATE TABLE oauth_states (
  state_hash TEXT PRIMARY KEY,
  flow TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  callback_url TEXT NOT NULL,
  redirect_url TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);

-- What a consent granted, until a source takes it (once): the credentials are the ciphertext.
-- `claimed_at`: a source being created with it (NULL: free).
CREATE TABLE oauth_secrets (
  id_hash TEXT PRIMARY KEY,
  flow TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  claimed_at BIGINT,
  expires_at BIGINT NOT NULL
);
CREATE INDEX oauth_secrets_expiry ON oauth_secrets (expires_at);
