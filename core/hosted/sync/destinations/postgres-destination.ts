import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type DestinationConfiguration, optionalBoolean, optionalString } from './config-fields.ts';
import type { Destination } from './destination.ts';
import { CONNECT_TIMEOUT_MS, connectPostgres, type PostgresSettings, readPostgresSettings } from './postgres-connection.ts';
import { databaseIdentity, ownDatabaseRefused, sameDatabase } from './database-identity.ts';
import type { NetworkGuard } from './network-guard.ts';
import { type CopyRunner, PostgresSession } from './postgres-session.ts';
import { PostgresBatchEncoder } from './postgres-batch-encoder.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { SessionDestination } from './session-destination.ts';

/** A swap behind a reader's lock (a BI session idle in a transaction) fails the attempt rather than hang the job. */
const LOCK_TIMEOUT_MS = 60_000;

/**
 * A PostgreSQL destination from its Airbyte-shaped configuration (schemas/server/destination-postgres.json);
 * connects on first use. Under a guard (the hosted server's) it connects only to an address the egress
 * policy allows, and never to the server's own database.
 */
export function createPostgresDestination(config: DestinationConfiguration, guard?: NetworkGuard): Destination {
  const settings = readPostgresSettings(config);
  const session = new PostgresSession({
    dialect: POSTGRES_DIALECT,
    schema: optionalString(config, 'postgres', 'schema', 'public'),
    dropCascade: optionalBoolean(config, 'postgres', 'drop_cascade'),
    connect: () => connectPostgres(settings, (ssl) => openClient(settings, ssl, guard)),
  });
  return new SessionDestination('postgres', session, new PostgresBatchEncoder());
}

async function openClient(settings: PostgresSettings, ssl: false | { rejectUnauthorized: false }, guard?: NetworkGuard): Promise<CopyRunner> {
  // The address judged is the one connected to: a second resolution could answer otherwise.
  const address = guard ? await guard.egress.resolve({ host: settings.host, port: settings.port }, 'configuration.host') : settings.host;
  const client = new pg.Client({
    host: address,
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
    if (guard?.ownDatabase) {
      const query = async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
      const [own, reached] = await Promise.all([guard.ownDatabase(), databaseIdentity(query)]);
      if (sameDatabase(own, reached)) throw ownDatabaseRefused(settings.host, settings.port, settings.database);
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
