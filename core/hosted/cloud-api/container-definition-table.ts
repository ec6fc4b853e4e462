import type { SqlDriver } from '../../stores/sql-driver.ts';
import { updateColumns } from './sql-columns.ts';

/** A stored custom definition naming a Docker image. `created_at` is epoch ms. */
export interface ContainerDefinitionRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  actor_type: 'source' | 'destination';
  name: string;
  docker_repository: string;
  docker_image_tag: string;
  documentation_url: string | null;
  created_at: number;
}

/** The rows of cloud_container_definitions. */
export class ContainerDefinitionTable {
  constructor(private readonly driver: SqlDriver) {}

  async insert(row: ContainerDefinitionRow): Promise<void> {
    await this.driver.run(
      `INSERT INTO cloud_container_definitions (id, organization_id, workspace_id, actor_type, name, docker_repository, docker_image_tag, documentation_url, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.organization_id,
        row.workspace_id,
        row.actor_type,
        row.name,
        row.docker_repository,
        row.docker_image_tag,
        row.documentation_url,
        row.created_at,
      ],
    );
  }

  async get(id: string): Promise<ContainerDefinitionRow | undefined> {
    const row = await this.driver.get<ContainerDefinitionRow>('SELECT * FROM cloud_container_definitions WHERE id = ?', [id]);
    return row && { ...row, created_at: Number(row.created_at) };
  }

  /** A workspace's definitions of sources or of destinations, oldest first. */
  async list(workspaceId: string, actorType: ContainerDefinitionRow['actor_type']): Promise<ContainerDefinitionRow[]> {
    const rows = await this.driver.all<ContainerDefinitionRow>(
      'SELECT * FROM cloud_container_definitions WHERE workspace_id = ? AND actor_type = ? ORDER BY created_at, id',
      [workspaceId, actorType],
    );
    return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
  }

  /** False when the row is gone. */
  update(id: string, changes: { name: string; dockerImageTag: string }): Promise<boolean> {
    return updateColumns(this.driver, 'cloud_container_definitions', id, { name: changes.name, docker_image_tag: changes.dockerImageTag });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.driver.run('DELETE FROM cloud_container_definitions WHERE id = ?', [id])).changes > 0;
  }
}
