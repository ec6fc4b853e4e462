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
