-- The endpoint (JSON: {host, port, database}, or a declarative source's {manifest.defaultBaseUrl,
-- manifest.auth}) the secrets of a source or destination were entered for: they are never sent to
-- another until given again. NULL: the endpoint its configuration and definition name now (rows from
-- before this column; a definition update binds its sources' NULLs to the endpoint it replaces).
ALTER TABLE cloud_sources ADD COLUMN secret_endpoint TEXT;
ALTER TABLE cloud_destinations ADD COLUMN secret_endpoint TEXT;
