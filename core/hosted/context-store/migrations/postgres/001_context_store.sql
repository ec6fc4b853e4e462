-- pg_trgm lives in public so every schema on the search path can use its operator classes.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- Replicated records, one row per (connector, entity, id).
CREATE TABLE context_records (
  rid BIGSERIAL PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  id TEXT NOT NULL,
  data JSONB NOT NULL,
  UNIQUE (connector_id, entity, id)
);

-- Text indexes: one row per record and text field (slot); words for keyword and fuzzy, value for like.
CREATE TABLE context_text (
  rid BIGINT NOT NULL REFERENCES context_records (rid) ON DELETE CASCADE,
  slot SMALLINT NOT NULL,
  words TSVECTOR,
  value TEXT,
  PRIMARY KEY (rid, slot)
);
CREATE INDEX context_text_words ON context_text USING gin (words);
CREATE INDEX context_text_value ON context_text USING gin (value public.gin_trgm_ops);
