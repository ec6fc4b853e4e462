-- Notifications: the events that call for them (an outbox), the deliveries they become, each owner's
-- signing secret and each organization's webhook. Times are epoch ms. Every URL is sealed with the
-- data keys (a Slack webhook's URL is itself a credential); `url_origin` (scheme and host) is what answers show.

-- An event, written in the same transaction as its cause when the cause is in this database (a sync job's
-- end, an OAuth grant found gone), else right after it. `subject` is JSON and never holds a secret;
-- `expanded_at` is when it became deliveries (NULL: not yet), in the transaction that wrote them.
CREATE TABLE notification_events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expanded_at BIGINT
);
CREATE INDEX notification_events_pending ON notification_events (expanded_at, created_at);

-- One message to one URL, sent until a 2xx (or given up). `id` is the webhook-id of every attempt, so a
-- receiver tells a resend (after a crash between sending and marking) from a new message.
-- `owner_kind`: workspace (its notification settings) or organization (its embedded webhook).
CREATE TABLE notification_deliveries (
  id TEXT PRIMARY KEY,
  owner_kind TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  connection_id TEXT,
  job_id BIGINT,
  url_origin TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_status_code INTEGER,
  last_error TEXT,
  lease_owner TEXT,
  lease_until BIGINT,
  created_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (status, next_attempt_at);
CREATE INDEX notification_deliveries_by_owner ON notification_deliveries (owner_kind, owner_id, created_at);

-- The Standard Webhooks secret of a workspace or an organization (`whsec_...`), sealed. After a rotation
-- the previous one also signs until `previous_until`, so receivers can switch without missing a message.
CREATE TABLE webhook_secrets (
  owner_kind TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  previous_key_id TEXT,
  previous_ciphertext TEXT,
  previous_until BIGINT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (owner_kind, owner_id)
);

-- An organization's webhook for its embedded sources' events, set by an operator; the URL sealed.
CREATE TABLE organization_webhooks (
  organization_id TEXT PRIMARY KEY,
  url_origin TEXT NOT NULL,
  key_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- The streams a connection's source offered when last looked at (at the end of each job): schema
-- changes are told against it. JSON.
CREATE TABLE notification_catalogs (
  connection_id TEXT PRIMARY KEY,
  streams TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- Each connector's replication outcome last told (ready or failed): an hourly refresh tells only a change.
CREATE TABLE notification_replication_states (
  connector_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
