import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Access, covers, ROLES } from '../core/hosted/permissions/roles.ts';
import type { PublicPermissionList } from '../core/hosted/types.generated.ts';

/** The signed-in application's permissions (GET /v1/permissions answers the caller's own). */
export const PermissionsContext = createContext<PublicPermissionList['data']>([]);

/** What the caller may do in a workspace (undefined: the organization's level): change buttons show only when it covers them; the server checks anyway. */
export function useCan(needed: Access, workspaceId?: string): boolean {
  const permissions = useContext(PermissionsContext);
  return permissions.some((permission) => {
    const role = ROLES[permission.permissionType];
    if (role.scope !== 'workspace') return covers(workspaceId ? role.workspace : role.organization, needed);
    return workspaceId !== undefined && permission.scopeId === workspaceId && covers(role.workspace, needed);
  });
}
