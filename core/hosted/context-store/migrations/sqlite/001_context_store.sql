-- Replicated records, one row per (connector, entity, id); data is the document as SQLite JSONB.
CREATE TABLE context_records (
  rid INTEGER PRIMARY KEY,
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  id TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE UNIQUE INDEX context_records_id ON context_records (connector_id, entity, id);

-- Text indexes: one row per record and text field, rowid = rid * 64 + the field's slot.
CREATE VIRTUAL TABLE context_words USING fts5 (words, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE context_trigrams USING fts5 (value, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0');

-- A record's text rows go with its old data; the writer adds the new ones.
CREATE TRIGGER context_records_data_changed AFTER UPDATE OF data ON context_records BEGIN
  DELETE FROM context_words WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
  DELETE FROM context_trigrams WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
END;
CREATE TRIGGER context_records_deleted AFTER DELETE ON context_records BEGIN
  DELETE FROM context_words WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
  DELETE FROM context_trigrams WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
END;

-- Characters the indexed words of a text field use: fuzzy search expands words over them.
CREATE TABLE context_alphabets (
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  slot INTEGER NOT NULL,
  chars TEXT NOT NULL,
  PRIMARY KEY (connector_id, entity, slot)
);

-- Per entity: how far replication got.
CREATE TABLE context_entities (
  connector_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  status TEXT NOT NULL,
  records INTEGER NOT NULL DEFAULT 0,
  synced_at TEXT,
  PRIMARY KEY (connector_id, entity)
);

-- Checkpoints a connector's replication keeps between runs (newest message read per channel).
CREATE TABLE context_checkpoints (
  connector_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (connector_id, key)
);

-- One replication job per connector: its last run, when it next runs, and who holds it (a lease).
CREATE TABLE replication_jobs (
  connector_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  error TEXT,
  next_run_at TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until TEXT
);
CREATE INDEX replication_jobs_due ON replication_jobs (next_run_at);
