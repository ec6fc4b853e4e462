import { BadRequestError } from '../../../errors.ts';

/** Which PostgreSQL cluster and database a connection reached, as the server itself reports it. */
export interface DatabaseIdentity {
  /** pg_control_system()'s, unique per cluster; null where a role may not read it. */
  systemIdentifier: string | null;
  /** When the cluster's postmaster started: what tells two clusters apart when the identifier is hidden. */
  startedAt: string;
  database: string;
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

// Qualified: a destination's role may have put functions of these names earlier on its search_path.
const BASE = 'SELECT pg_catalog.current_database() AS database, pg_catalog.pg_postmaster_start_time()::text AS started_at';

/** The identity of the database `query` runs on (whatever host name, address, port or user reached it). */
export async function databaseIdentity(query: Query): Promise<DatabaseIdentity> {
  const row =
    (await query(`${BASE}, (SELECT system_identifier::text FROM pg_catalog.pg_control_system()) AS system_identifier`).catch(() => undefined))?.[0] ??
    (await query(BASE))[0]!;
  return { systemIdentifier: (row.system_identifier as string | null) ?? null, startedAt: String(row.started_at), database: String(row.database) };
}

/**
 * The server's own identity, read once it has a system identifier (which never changes); without
 * one it is read each time, since the postmaster start time it falls back on changes with a restart.
 */
export function stableIdentity(read: () => Promise<DatabaseIdentity>): () => Promise<DatabaseIdentity> {
  let known: DatabaseIdentity | undefined;
  return async () => {
    if (known) return known;
    const identity = await read();
    if (identity.systemIdentifier !== null) known = identity;
    return identity;
  };
}

export function sameDatabase(a: DatabaseIdentity, b: DatabaseIdentity): boolean {
  if (a.database !== b.database) return false;
  if (a.systemIdentifier !== null && b.systemIdentifier !== null) return a.systemIdentifier === b.systemIdentifier;
  return a.startedAt === b.startedAt;
}

/** A destination that reached the server's own database: refused as egress is, whatever named it. */
export function ownDatabaseRefused(host: string, port: number, database: string): BadRequestError {
  return new BadRequestError(
    `configuration.host: the postgres destination at ${host}:${port}/${database} is this server's own database, which is never a destination`,
    'egress_refused',
  );
}
