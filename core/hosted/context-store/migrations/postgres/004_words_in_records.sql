-- A record's words move into its own row: one tsvector for all its text fields, each word prefixed
-- with its field's slot (`3:smith`). A search's candidates then come from the entity's GIN index on
-- the records themselves (created when the store prepares the entity), not from text rows each
-- joined back to its record; substring fields get trigram indexes on their own expressions the same way.
ALTER TABLE context_records ADD COLUMN words TSVECTOR;
UPDATE context_records r SET words = t.words
FROM (
  SELECT c.rid, array_to_tsvector(array_agg(c.slot || ':' || w.lexeme)) AS words
  FROM context_text c CROSS JOIN LATERAL unnest(c.words) AS w
  GROUP BY c.rid
) t
WHERE t.rid = r.rid;
DROP TABLE context_text;
