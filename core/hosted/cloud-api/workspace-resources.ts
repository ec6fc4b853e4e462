import type { SqlDriver } from '../../stores/sql-driver.ts';

/** The tables of a workspace's own rows, connections first (they name sources and destinations), definitions after their sources. */
const WORKSPACE_TABLES = [
  'cloud_connections',
  'cloud_sources',
  'cloud_destinations',
  'cloud_builder_testing_values',
  'cloud_declarative_sources',
  'cloud_container_definitions',
  'cloud_tags',
  // Who may do what in it.
  'permissions',
  // Nothing is left to list them with.
  'cloud_tombstones',
];

/**
 * A workspace's sources, destinations, connections (and the tombstones of deleted ones), tags,
 * definitions (declarative, with their testing values, and custom) and OAuth apps and flows, which go with it.
 */
export class WorkspaceResources {
  constructor(private readonly driver: SqlDriver) {}

  /** Deletes them all in one transaction, connections first (they name the others), definitions after their sources; answers the connections' ids. */
  deleteAll(workspaceId: string): Promise<string[]> {
    return this.driver.transaction(async (tx) => {
      const connections = await tx.all<{ id: string }>('SELECT id FROM cloud_connections WHERE workspace_id = ?', [workspaceId]);
      await tx.run("DELETE FROM oauth_tokens WHERE credential_key IN (SELECT 'source:' || id FROM cloud_sources WHERE workspace_id = ?)", [workspaceId]);
      // A connection's tags are its workspace's: their links go with them.
      await tx.run('DELETE FROM cloud_connection_tags WHERE tag_id IN (SELECT id FROM cloud_tags WHERE workspace_id = ?)', [workspaceId]);
      for (const table of WORKSPACE_TABLES) await tx.run(`DELETE FROM ${table} WHERE workspace_id = ?`, [workspaceId]);
      // Its OAuth apps, and the consents and secrets of its flows.
      await tx.run("DELETE FROM oauth_apps WHERE owner_kind = 'workspace' AND owner_id = ?", [workspaceId]);
      for (const table of ['oauth_states', 'oauth_secrets']) await tx.run(`DELETE FROM ${table} WHERE workspace_id = ?`, [workspaceId]);
      return connections.map((row) => row.id);
    });
  }
}
