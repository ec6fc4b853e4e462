-- Searches compare and order ids byte-wise (COLLATE "C"), as SQLite does; the id column (and so its
-- unique index) takes the same collation, or the planner can use neither for an id lookup nor for the
-- default order by id, whatever the database's own collation.
ALTER TABLE context_records ALTER COLUMN id TYPE TEXT COLLATE "C";
