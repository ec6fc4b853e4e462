import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database of its own for PostgreSQL destinations: the store's database is never one. */
    destinationDatabaseUrl: string | undefined;
  }
}

/**
 * Once per run: a PostgreSQL database for the tests' destinations, beside the one their stores use
 * (the server refuses its own database as a destination), dropped when the run ends.
 */
export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return project.provide('destinationDatabaseUrl', undefined);
  const name = `plugboard_destinations_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  project.provide('destinationDatabaseUrl', url.href);
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
