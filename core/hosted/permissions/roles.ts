import type { PermissionType } from '../types.generated.ts';

export type { PermissionType };

/**
 * What a caller does, weakest first: `member` sees the organization it belongs to; `read` reads;
 * `run` also runs (syncs, jobs, checks); `edit` also creates, changes and deletes resources; `admin`
 * also manages permissions, OAuth apps, notification settings and workspaces.
 */
export const ACCESS_LEVELS = ['member', 'read', 'run', 'edit', 'admin'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** Whether `held` covers `needed` (an absent level covers nothing). */
export function covers(held: Access | undefined, needed: Access): boolean {
  return held !== undefined && ACCESS_LEVELS.indexOf(held) >= ACCESS_LEVELS.indexOf(needed);
}

/** The stronger of two levels. */
export function stronger(a: Access | undefined, b: Access | undefined): Access | undefined {
  if (a === undefined) return b;
  return b !== undefined && covers(b, a) ? b : a;
}

/** Where a type applies: the whole install, an organization (and all its workspaces), or one workspace. */
export type RoleScope = 'instance' | 'organization' | 'workspace';

export interface Role {
  scope: RoleScope;
  /** What it allows on the organization itself. */
  organization: Access;
  /** What it allows in a workspace it covers; undefined: none (organization_member sees no workspace). */
  workspace: Access | undefined;
}

/** The lattice: each type's scope and what it allows. A workspace type makes its holder a member of the organization. */
export const ROLES: Record<PermissionType, Role> = {
  instance_admin: { scope: 'instance', organization: 'admin', workspace: 'admin' },
  organization_admin: { scope: 'organization', organization: 'admin', workspace: 'admin' },
  organization_editor: { scope: 'organization', organization: 'edit', workspace: 'edit' },
  organization_runner: { scope: 'organization', organization: 'run', workspace: 'run' },
  organization_reader: { scope: 'organization', organization: 'read', workspace: 'read' },
  organization_member: { scope: 'organization', organization: 'member', workspace: undefined },
  // Airbyte's older name for workspace_admin.
  workspace_owner: { scope: 'workspace', organization: 'member', workspace: 'admin' },
  workspace_admin: { scope: 'workspace', organization: 'member', workspace: 'admin' },
  workspace_editor: { scope: 'workspace', organization: 'member', workspace: 'edit' },
  workspace_runner: { scope: 'workspace', organization: 'member', workspace: 'run' },
  workspace_reader: { scope: 'workspace', organization: 'member', workspace: 'read' },
};

/** Types that keep an organization administered: it must hold at least one. */
export function administersOrganization(type: PermissionType): boolean {
  return ROLES[type].organization === 'admin';
}
