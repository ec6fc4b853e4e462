import { NotFoundError } from '../../errors.ts';
import type { Store, Workspace } from '../../stores/types.ts';

/** The organization's workspace of that id; another organization's is not found, as an unknown one. */
export async function workspaceOf(store: Store, organizationId: string, id: string): Promise<Workspace> {
  const workspace = await store.getWorkspace(id.toLowerCase());
  if (!workspace || workspace.organization_id !== organizationId) throw workspaceNotFound(id);
  return workspace;
}

export function workspaceNotFound(id: string): NotFoundError {
  return new NotFoundError(`Workspace ${id} not found`, 'workspace_not_found');
}
