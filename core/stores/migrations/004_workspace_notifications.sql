-- The public cloud API's workspace notification settings (a JSON object), kept as given.
ALTER TABLE workspaces ADD COLUMN notifications TEXT;
