import { join } from 'node:path';
import { createContextStore } from '../../core/hosted/context-store/create-context-store.ts';
import type { TestDatabase } from './hosted-fixture.ts';

/** A context store in a test's database: its PostgreSQL schema, or context.db in its SQLite directory. */
export function openTestContextStore(database: TestDatabase): ReturnType<typeof createContextStore> {
  return database.databaseUrl
    ? createContextStore({ databaseUrl: database.databaseUrl, schema: database.schema! })
    : createContextStore({ dataDir: database.dataDir, file: join(database.dataDir, 'context.db') });
}
