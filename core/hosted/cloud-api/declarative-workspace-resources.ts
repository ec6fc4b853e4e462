import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { DeclarativeTable } from './declarative-table.ts';
import { WorkspaceResources } from './workspace-resources.ts';

/** A workspace's resources with its declarative source definitions, which go with it (after its sources). */
export class WorkspaceResourcesWithDefinitions extends WorkspaceResources {
  constructor(
    driver: SqlDriver,
    private readonly definitions: DeclarativeTable,
  ) {
    super(driver);
  }

  override async deleteAll(workspaceId: string): Promise<string[]> {
    const connectionIds = await super.deleteAll(workspaceId);
    await this.definitions.deleteWorkspace(workspaceId);
    return connectionIds;
  }
}
