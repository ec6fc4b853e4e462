import { parse as parseConnectionString } from 'pg-connection-string';
import { PlugboardError } from '../../../errors.ts';
import { type DestinationConfiguration, DestinationConfigError, optionalBoolean, optionalInteger, optionalVariant, requiredString } from './config-fields.ts';

/** The `ssl_mode`s pg can honour without certificates; verify-ca and verify-full would need them. */
const SSL_MODES = ['disable', 'prefer', 'require'] as const;
type SslMode = (typeof SSL_MODES)[number];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Long enough for a distant database; short enough that a check of an address that never answers ends. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Where a PostgreSQL destination is, as its configuration says (the sync writes there; the cloud client reads). */
export interface PostgresSettings {
  host: string;
  port: number;
  database: string;
  username: string;
  password: string | undefined;
  sslMode: SslMode;
}

/**
 * A PostgreSQL destination's connection settings (schemas/server/destination-postgres.json);
 * jdbc_url_params, raw_data_schema, disable_type_dedupe and unconstrained_number are accepted and
 * have no effect. `password` is the configuration's unless the caller has it from elsewhere.
 */
export function readPostgresSettings(config: DestinationConfiguration, password: unknown = config.password): PostgresSettings {
  const tunnel = optionalVariant(config, 'postgres', 'tunnel_method', 'tunnel_method');
  if (tunnel !== undefined && tunnel !== 'NO_TUNNEL')
    throw new DestinationConfigError(`postgres destination: tunnel_method ${tunnel} is not supported (only NO_TUNNEL)`, 'tunnel_method');
  const mode = optionalVariant(config, 'postgres', 'ssl_mode', 'mode') ?? (optionalBoolean(config, 'postgres', 'ssl') ? 'require' : 'disable');
  if (!SSL_MODES.includes(mode as SslMode))
    throw new DestinationConfigError(`postgres destination: ssl_mode "${mode}" is not supported (use ${SSL_MODES.join(', ')})`, 'ssl_mode');
  if (password !== undefined && password !== null && typeof password !== 'string')
    throw new DestinationConfigError('postgres destination: "password" must be a string', 'password');
  const host = requiredString(config, 'postgres', 'host');
  // A socket directory would reach the server's own PostgreSQL as its OS user, with no password asked.
  if (host.startsWith('/')) throw new DestinationConfigError('postgres destination: "host" must be a host name or address, not a socket directory', 'host');
  const database = requiredString(config, 'postgres', 'database');
  const username = requiredString(config, 'postgres', 'username');
  // They go into the startup packet as they are: a control character there could smuggle connection options in.
  for (const [field, value] of [
    ['host', host],
    ['database', database],
    ['username', username],
  ] as const) {
    if (CONTROL_CHARACTER.test(value)) throw new DestinationConfigError(`postgres destination: "${field}" must not contain control characters`, field);
  }
  return {
    host,
    port: optionalInteger(config, 'postgres', 'port', 5432),
    database,
    username,
    password: password ?? undefined,
    sslMode: mode as SslMode,
  };
}

/**
 * Connects as the settings' `ssl_mode` says: `require` and `prefer` encrypt without verifying the
 * certificate, as libpq's modes of those names do, and `prefer` falls back to plain only when the
 * server has no TLS at all. A failure names host, port and database, never the password.
 */
export async function connectPostgres<T>(settings: PostgresSettings, open: (ssl: false | { rejectUnauthorized: false }) => Promise<T>): Promise<T> {
  try {
    if (settings.sslMode === 'disable') return await open(false);
    try {
      return await open({ rejectUnauthorized: false });
    } catch (error) {
      if (settings.sslMode === 'require' || !/does not support SSL/i.test(String((error as Error).message))) throw error;
      return await open(false);
    }
  } catch (error) {
    // A refusal (egress policy, the server's own database) is answered as it is.
    if (error instanceof PlugboardError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    // pg's messages name host, user and database but not the password; scrubbed anyway, in case one ever quotes it.
    const safe = settings.password ? reason.replaceAll(settings.password, '***') : reason;
    throw new Error(`cannot connect to postgres at ${settings.host}:${settings.port}/${settings.database}: ${safe}`);
  }
}

/** A PostgreSQL destination's configuration for the database a connection URL names (tests and benchmarks write into their own). */
export function postgresConfigurationFromUrl(databaseUrl: string, schema: string): DestinationConfiguration {
  const { host, port, database, user, password } = parseConnectionString(databaseUrl);
  return {
    destinationType: 'postgres',
    host: host || 'localhost',
    port: Number(port || 5432),
    database: database ?? '',
    schema,
    username: user || 'postgres',
    ...(password ? { password } : {}),
  };
}
