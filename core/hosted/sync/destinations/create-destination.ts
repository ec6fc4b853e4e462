import { join } from 'node:path';
import type { DestinationConfiguration } from './config-fields.ts';
import type { Destination, DestinationType } from './destination.ts';
import { createDuckDbDestination } from './duckdb-destination.ts';
import { createPostgresDestination } from './postgres-destination.ts';
import type { NetworkGuard } from './network-guard.ts';
import { createSqliteDestination } from './sqlite-destination.ts';

/**
 * The destination a configuration describes (its public API shape, secrets opened). Nothing is
 * connected or opened until its first use or check(); a configuration that cannot work (a path
 * leaving the data directory, an unsupported mode) is refused here.
 */
export function createDestination(
  type: DestinationType,
  configuration: DestinationConfiguration,
  options: { dataDir: string; guard?: NetworkGuard },
): Destination {
  const declared = configuration.destinationType;
  if (declared !== undefined && declared !== type)
    throw new Error(`a ${type} destination cannot take a configuration of destinationType ${JSON.stringify(declared)}`);
  switch (type) {
    case 'sqlite':
      return createSqliteDestination(configuration, options.dataDir);
    case 'postgres':
      return createPostgresDestination(configuration, options.guard);
    case 'duckdb':
      return createDuckDbDestination(configuration, options.dataDir);
  }
}

/** Where a workspace's file destinations (SQLite, DuckDB) live: their `destination_path` is read under it. */
export function workspaceDataDir(dataDir: string, workspaceId: string): string {
  return join(dataDir, 'workspaces', workspaceId);
}
