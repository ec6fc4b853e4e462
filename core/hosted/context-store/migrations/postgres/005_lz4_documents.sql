-- Documents are compressed with lz4 rather than pglz: a search reads a JSON path of each record it
-- checks, and PostgreSQL decompresses the document for every path it reads (a nested filter, four
-- times a record); lz4 does that several times faster at about the same size. Records written from
-- here on take it; stored ones keep pglz until rewritten. A server built without lz4 keeps pglz.
DO $$
BEGIN
  ALTER TABLE context_records ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
