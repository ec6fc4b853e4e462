import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type DatabaseIdentity, databaseIdentity, ownDatabaseRefused, sameDatabase } from './database-identity.ts';
import type { NetworkGuard } from './network-guard.ts';
import { CONNECT_TIMEOUT_MS, type PostgresSettings } from './postgres-connection.ts';
import type { CopyRunner } from './postgres-session.ts';

/** A swap behind a reader's lock (a BI session idle in a transaction) fails the attempt rather than hang the job. */
const LOCK_TIMEOUT_MS = 60_000;

/** Where a destination's connections go: the address to connect to, and the server's own database, which they must not reach. */
export interface PostgresReach {
  address: string;
  ownDatabase?: DatabaseIdentity;
}

/** The address the egress policy allows for the settings' host (the one connected to: a second resolution could answer otherwise), and the server's own database. */
export async function reachOf(settings: PostgresSettings, guard?: NetworkGuard): Promise<PostgresReach> {
  if (!guard) return { address: settings.host };
  const address = await guard.egress.resolve({ host: settings.host, port: settings.port }, 'configuration.host');
  return guard.ownDatabase ? { address, ownDatabase: await guard.ownDatabase() } : { address };
}

/**
 * Opens a connection at the address `reach` names (the one the egress policy judged), refusing the
 * server's own database: what the destination's session and its loader thread (postgres-loader-worker.ts)
 * both connect with.
 */
export async function openClient(settings: PostgresSettings, ssl: false | { rejectUnauthorized: false }, reach: PostgresReach): Promise<CopyRunner> {
  const client = new pg.Client({
    host: reach.address,
    port: settings.port,
    database: settings.database,
    user: settings.username,
    password: settings.password,
    ssl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    lock_timeout: LOCK_TIMEOUT_MS,
    application_name: 'plugboard-sync',
  });
  let broken = false;
  // A connection lost between operations must not crash the process: the next operation reconnects.
  client.on('error', () => (broken = true));
  client.on('end', () => (broken = true));
  try {
    await client.connect();
    if (reach.ownDatabase) {
      const query = async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
      if (sameDatabase(reach.ownDatabase, await databaseIdentity(query))) throw ownDatabaseRefused(settings.host, settings.port, settings.database);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
    copyFrom: async (sql, data) => {
      const copy = client.query(copyFrom(sql));
      copy.end(data);
      await finished(copy);
    },
    isBroken: () => broken,
    close: () => client.end(),
  };
}
