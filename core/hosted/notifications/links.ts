import type { ConnectionRecord } from '../cloud-api/connection-table.ts';
import type { NamedLink } from './sync-summary.ts';

/**
 * The pages messages link to, as Airbyte's WebUrlHelper builds them on its webapp URL: source and
 * destination under singular segments (`source/`, `destination/`), as Airbyte has them.
 */
export class Links {
  private readonly root: string;

  constructor(root: string) {
    this.root = root.replace(/\/+$/, '');
  }

  workspace(id: string, name: string): NamedLink {
    return { id, name, url: `${this.root}/workspaces/${id}` };
  }

  connection(connection: Pick<ConnectionRecord, 'id' | 'name' | 'workspaceId'>): NamedLink {
    return { id: connection.id, name: connection.name, url: `${this.root}/workspaces/${connection.workspaceId}/connections/${connection.id}` };
  }

  actor(kind: 'source' | 'destination', workspaceId: string, id: string, name: string): NamedLink {
    return { id, name, url: `${this.root}/workspaces/${workspaceId}/${kind}/${id}` };
  }
}
