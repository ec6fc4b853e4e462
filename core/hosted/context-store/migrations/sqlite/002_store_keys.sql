-- Records keyed by a small integer per connector instead of its 36-character id: every index entry is
-- smaller and compares sooner, which makes replication's inserts about twice as fast.
-- AUTOINCREMENT: a deleted connector's key is never given again, so nothing left under it could surface elsewhere.
CREATE TABLE context_stores (
  store_key INTEGER PRIMARY KEY AUTOINCREMENT,
  connector_id TEXT NOT NULL UNIQUE
);
INSERT INTO context_stores (connector_id) SELECT DISTINCT connector_id FROM context_records ORDER BY connector_id;

-- Rebuilt with the same rids, so the text rows keep matching their records.
DROP TRIGGER context_records_data_changed;
DROP TRIGGER context_records_deleted;
CREATE TABLE context_records_keyed (
  rid INTEGER PRIMARY KEY,
  store_key INTEGER NOT NULL,
  entity TEXT NOT NULL,
  id TEXT NOT NULL,
  data BLOB NOT NULL
);
INSERT INTO context_records_keyed (rid, store_key, entity, id, data)
  SELECT r.rid, s.store_key, r.entity, r.id, r.data FROM context_records r JOIN context_stores s ON s.connector_id = r.connector_id;
-- Takes the expression indexes with it; the store recreates them on the new key when it prepares each entity.
DROP TABLE context_records;
ALTER TABLE context_records_keyed RENAME TO context_records;
CREATE UNIQUE INDEX context_records_id ON context_records (store_key, entity, id);

CREATE TRIGGER context_records_data_changed AFTER UPDATE OF data ON context_records BEGIN
  DELETE FROM context_words WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
  DELETE FROM context_trigrams WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
END;
CREATE TRIGGER context_records_deleted AFTER DELETE ON context_records BEGIN
  DELETE FROM context_words WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
  DELETE FROM context_trigrams WHERE rowid >= old.rid * 64 AND rowid < old.rid * 64 + 64;
END;
