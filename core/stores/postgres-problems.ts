import pg from 'pg';
import { ConfigurationError } from '../configuration-error.ts';

/** Long enough for a distant database; short enough that an address that never answers refuses the start instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Network failures in plain words; PostgreSQL's own refusals (role, password, database) already are. */
const NETWORK_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is PostgreSQL running, and on that port?)',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset',
};

/**
 * Connects once and leaves, so a database that cannot be used refuses the start (ConfigurationError)
 * in words naming host:port, role and database, never the password, instead of failing the migration.
 */
export async function checkPostgresConnection(connectionString: string): Promise<void> {
  let client: pg.Client;
  try {
    // pg's own reading of the URL (and of the PG* variables it falls back on), so the words name what it tried.
    client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  } catch {
    // The error would quote the URL, password included.
    throw new ConfigurationError('DATABASE_URL cannot be read as a PostgreSQL URL (a password with reserved characters must be percent-encoded)');
  }
  try {
    await client.connect();
  } catch (error) {
    const role = client.user === undefined ? '' : ` as role "${client.user}"`;
    const database = client.database === undefined ? '' : `, database "${client.database}"`;
    throw new ConfigurationError(`cannot connect to PostgreSQL at ${client.host}:${client.port}${role}${database}: ${connectionProblem(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A migration PostgreSQL refused for want of privileges: the role in DATABASE_URL, not Plugboard, must change. */
export function postgresPrivilegeProblem(error: unknown): ConfigurationError | null {
  if (!(error instanceof pg.DatabaseError) || error.code !== '42501') return null;
  return new ConfigurationError(
    `PostgreSQL refused the schema migration: ${error.message}; the role in DATABASE_URL must be allowed to create tables in its schema`,
  );
}

/** pg's and the network's messages name no password (a timeout, TLS, a dropped connection), so the rest pass as they are. */
function connectionProblem(error: unknown): string {
  if (error instanceof pg.DatabaseError) return error.message;
  return NETWORK_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''] ?? (error instanceof Error ? error.message : String(error));
}
