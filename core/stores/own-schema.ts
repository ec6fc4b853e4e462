import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { checkPostgresConnection, postgresPrivilegeProblem } from './postgres-problems.ts';

/** Where Plugboard's tables live on PostgreSQL when nothing else is configured. */
export const DEFAULT_SCHEMA = 'plugboard';

/**
 * The schema Plugboard's own tables live in on PostgreSQL: the one configured (the start's schema,
 * or the URL's `options=-c search_path=...`) as it is, else `plugboard`, created when missing. So a
 * tenant's table named like one of Plugboard's (in `public`, say) is never Plugboard's. An install
 * whose tables are still in `public` (made before) keeps them there, with a warning saying how to
 * move them: moving them unasked could break a DBA's grants and views.
 */
export async function ownSchema(
  databaseUrl: string,
  configured: string | undefined,
  warn: (message: string) => void = () => undefined,
): Promise<string | undefined> {
  if (configured !== undefined || /search_path=/.test(parseConnectionString(databaseUrl).options ?? '')) return configured;
  await checkPostgresConnection(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ own: string | null; legacy: string | null }>(
      "SELECT to_regnamespace($1)::text AS own, to_regclass('public.signing_keys')::text AS legacy",
      [DEFAULT_SCHEMA],
    );
    if (rows[0]!.own === null && rows[0]!.legacy !== null) {
      warn(
        `Plugboard's tables are in the schema "public" of DATABASE_URL's database, where they were made; move them to a schema of their own with: ALTER SCHEMA public RENAME TO ${DEFAULT_SCHEMA}; CREATE SCHEMA public;`,
      );
      return undefined;
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${DEFAULT_SCHEMA}`).catch((error: unknown) => {
      throw postgresPrivilegeProblem(error) ?? error;
    });
    return DEFAULT_SCHEMA;
  } finally {
    await client.end();
  }
}
