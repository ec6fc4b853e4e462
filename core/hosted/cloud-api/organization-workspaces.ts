import { NotFoundError } from '../../errors.ts';
import type { Store, Workspace } from '../../stores/types.ts';
import { requireWorkspace } from '../permissions/request-access.ts';

/**
 * The organization's workspace of that id; another organization's is not found, as an unknown one,
 * and one the caller's permissions do not open for what it does is a 403.
 */
export async function workspaceOf(store: Store, organizationId: string, id: string): Promise<Workspace> {
  const workspace = await store.getWorkspace(id.toLowerCase());
  if (!workspace || workspace.organization_id !== organizationId) throw workspaceNotFound(id);
  requireWorkspace(workspace.id);
  return workspace;
}

export function workspaceNotFound(id: string): NotFoundError {
  return new NotFoundError(`Workspace ${id} not found`, 'workspace_not_found');
}
