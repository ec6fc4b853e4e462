import type { SqlDriver } from '../../stores/sql-driver.ts';

/** A workspace's sources, destinations, connections and declarative source definitions, which go with it. */
export class WorkspaceResources {
  constructor(private readonly driver: SqlDriver) {}

  /** Deletes them all in one transaction, connections first (they name the others), definitions after their sources; answers the connections' ids. */
  deleteAll(workspaceId: string): Promise<string[]> {
    return this.driver.transaction(async (tx) => {
      const connections = await tx.all<{ id: string }>('SELECT id FROM cloud_connections WHERE workspace_id = ?', [workspaceId]);
      for (const table of ['cloud_connections', 'cloud_sources', 'cloud_destinations', 'cloud_declarative_sources'])
        await tx.run(`DELETE FROM ${table} WHERE workspace_id = ?`, [workspaceId]);
      return connections.map((row) => row.id);
    });
  }
}
