import pg from 'pg';
import { type DestinationConfiguration, optionalBoolean, optionalInteger, optionalString, optionalVariant, requiredString } from './config-fields.ts';
import type { Destination } from './destination.ts';
import { SessionDestination } from './session-destination.ts';
import type { SqlDialect } from './table-columns.ts';
import { type QueryRunner, TextListSession } from './text-list-session.ts';

const POSTGRES_DIALECT: SqlDialect = {
  types: {
    string: 'TEXT',
    integer: 'BIGINT',
    number: 'DOUBLE PRECISION',
    boolean: 'BOOLEAN',
    json: 'JSONB',
    rawId: 'TEXT',
    extractedAt: 'TIMESTAMP WITH TIME ZONE',
    meta: 'JSONB',
  },
  maxIdentifierBytes: 63,
  foldsIdentifierCase: false,
  booleans: 'boolean',
  textAllowsNul: false,
};

/** The `ssl_mode`s pg can honour without certificates; verify-ca and verify-full would need them. */
const SSL_MODES = ['disable', 'prefer', 'require'] as const;
type SslMode = (typeof SSL_MODES)[number];

/** Long enough for a distant database; short enough that a check of an address that never answers ends. */
const CONNECT_TIMEOUT_MS = 10_000;
const LOCK_TIMEOUT_MS = 60_000;

interface PostgresSettings {
  host: string;
  port: number;
  database: string;
  username: string;
  password: string | undefined;
  sslMode: SslMode;
}

/** A PostgreSQL destination from its Airbyte-shaped configuration (schemas/server/destination-postgres.json); connects on first use. */
export function createPostgresDestination(config: DestinationConfiguration): Destination {
  const settings = readSettings(config);
  const session = new TextListSession({
    dialect: POSTGRES_DIALECT,
    schema: optionalString(config, 'postgres', 'schema', 'public'),
    dropCascade: optionalBoolean(config, 'postgres', 'drop_cascade'),
    textListParam: (number) => `$${number}::text[]`,
    connect: () => connectPostgres(settings),
  });
  return new SessionDestination('postgres', session);
}

/** jdbc_url_params, raw_data_schema, disable_type_dedupe and unconstrained_number are accepted and have no effect here. */
function readSettings(config: DestinationConfiguration): PostgresSettings {
  const tunnel = optionalVariant(config, 'postgres', 'tunnel_method', 'tunnel_method');
  if (tunnel !== undefined && tunnel !== 'NO_TUNNEL') throw new Error(`postgres destination: tunnel_method ${tunnel} is not supported (only NO_TUNNEL)`);
  const mode = optionalVariant(config, 'postgres', 'ssl_mode', 'mode') ?? (optionalBoolean(config, 'postgres', 'ssl') ? 'require' : 'disable');
  if (!SSL_MODES.includes(mode as SslMode)) throw new Error(`postgres destination: ssl_mode "${mode}" is not supported (use ${SSL_MODES.join(', ')})`);
  const password = config.password;
  if (password !== undefined && password !== null && typeof password !== 'string') throw new Error('postgres destination: "password" must be a string');
  const host = requiredString(config, 'postgres', 'host');
  // A socket directory would reach the server's own PostgreSQL as its OS user, with no password asked.
  if (host.startsWith('/')) throw new Error('postgres destination: "host" must be a host name or address, not a socket directory');
  return {
    host,
    port: optionalInteger(config, 'postgres', 'port', 5432),
    database: requiredString(config, 'postgres', 'database'),
    username: requiredString(config, 'postgres', 'username'),
    password: password ?? undefined,
    sslMode: mode as SslMode,
  };
}

/** `prefer` tries TLS first and falls back to plain only when the server has no TLS at all, as libpq does. */
async function connectPostgres(settings: PostgresSettings): Promise<QueryRunner> {
  try {
    if (settings.sslMode === 'disable') return await openClient(settings, false);
    try {
      return await openClient(settings, true);
    } catch (error) {
      if (settings.sslMode === 'require' || !/does not support SSL/i.test(String((error as Error).message))) throw error;
      return await openClient(settings, false);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // pg's messages name host, user and database but not the password; scrubbed anyway, in case one ever quotes it.
    const safe = settings.password ? reason.replaceAll(settings.password, '***') : reason;
    throw new Error(`cannot connect to postgres at ${settings.host}:${settings.port}/${settings.database}: ${safe}`);
  }
}

async function openClient(settings: PostgresSettings, tls: boolean): Promise<QueryRunner> {
  const client = new pg.Client({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.username,
    password: settings.password,
    // require and prefer encrypt without verifying the certificate, as libpq's modes of those names do.
    ssl: tls ? { rejectUnauthorized: false } : false,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A swap behind a reader's lock (a BI session idle in a transaction) fails the attempt rather than hang the job.
    lock_timeout: LOCK_TIMEOUT_MS,
    application_name: 'plugboard-sync',
  });
  let broken = false;
  // A connection lost between operations must not crash the process: the next operation reconnects.
  client.on('error', () => (broken = true));
  client.on('end', () => (broken = true));
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[],
    runWithTextLists: async (sql, lists) => void (await client.query(sql, lists)),
    isBroken: () => broken,
    close: () => client.end(),
  };
}
