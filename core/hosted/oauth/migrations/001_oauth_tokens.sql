-- The live tokens of each refreshable credential (a stored connector's, a public API source's), sealed.
-- `origin` hashes the refresh token the credential was created with (rows of replaced credentials are ignored).
-- `credential_key` is `connector:<id>` or `source:<id>`; `status` is `active` or `needs_reauth`.
CREATE TABLE oauth_tokens (
  credential_key TEXT PRIMARY KEY,
  origin TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  status TEXT NOT NULL,
  refresh_count INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
