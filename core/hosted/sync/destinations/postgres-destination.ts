import { type DestinationConfiguration, optionalBoolean, optionalString } from './config-fields.ts';
import type { Destination } from './destination.ts';
import { openClient, type PostgresReach, reachOf } from './postgres-client.ts';
import { connectPostgres, readPostgresSettings } from './postgres-connection.ts';
import type { NetworkGuard } from './network-guard.ts';
import { PostgresBatchLoader } from './postgres-batch-loader.ts';
import { PostgresSession } from './postgres-session.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { SessionDestination } from './session-destination.ts';

/**
 * A PostgreSQL destination from its Airbyte-shaped configuration (schemas/server/destination-postgres.json);
 * connects on first use. Under a guard (the hosted server's) it connects only to an address the egress
 * policy allows, and never to the server's own database.
 */
export function createPostgresDestination(config: DestinationConfiguration, guard?: NetworkGuard): Destination {
  const settings = readPostgresSettings(config);
  const schema = optionalString(config, 'postgres', 'schema', 'public');
  const session = new PostgresSession({
    dialect: POSTGRES_DIALECT,
    schema,
    dropCascade: optionalBoolean(config, 'postgres', 'drop_cascade'),
    connect: () => {
      // Judged once per connection, even when `prefer` tries TLS and then plain.
      let reach: Promise<PostgresReach> | undefined;
      const judged = () => {
        reach ??= reachOf(settings, guard);
        return reach;
      };
      return connectPostgres(settings, async (ssl) => openClient(settings, ssl, await judged()));
    },
  });
  return new SessionDestination('postgres', session, new PostgresBatchLoader(settings, schema, () => reachOf(settings, guard)));
}
