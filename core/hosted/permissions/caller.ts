import { covers, ROLES, stronger, type Access, type PermissionType } from './roles.ts';

/** One of a user's permissions, as a caller holds it. */
export interface Grant {
  type: PermissionType;
  /** Its workspace; null: an organization (or instance) permission. */
  workspaceId: string | null;
}

/**
 * Who is calling and what its permissions allow: an application (a user) in its organization, through
 * an operator token (everything its permissions reach) or a workspace token (its one workspace, no more
 * than the application may do there, nothing at the organization's level).
 */
export class Caller {
  constructor(
    readonly organizationId: string,
    /** The application's id: the user the permissions are of. */
    readonly userId: string,
    readonly grants: readonly Grant[],
    /** A scoped or widget token's workspace. */
    readonly boundWorkspaceId?: string,
  ) {}

  /** What it may do in that workspace of its organization; undefined: nothing, not even see it. */
  onWorkspace(workspaceId: string): Access | undefined {
    if (this.boundWorkspaceId !== undefined && workspaceId !== this.boundWorkspaceId) return undefined;
    let level: Access | undefined;
    for (const grant of this.grants) {
      if (grant.workspaceId === null || grant.workspaceId === workspaceId) level = stronger(level, ROLES[grant.type].workspace);
    }
    return level;
  }

  /** What it may do on the organization itself; a workspace token does nothing there. */
  onOrganization(): Access | undefined {
    if (this.boundWorkspaceId !== undefined) return undefined;
    let level: Access | undefined;
    for (const grant of this.grants) level = stronger(level, ROLES[grant.type].organization);
    return level;
  }

  /** The most it may do anywhere: a route needing more is refused before it runs. */
  highest(): Access | undefined {
    if (this.boundWorkspaceId !== undefined) return this.onWorkspace(this.boundWorkspaceId);
    let level = this.onOrganization();
    for (const grant of this.grants) if (grant.workspaceId !== null) level = stronger(level, this.onWorkspace(grant.workspaceId));
    return level;
  }

  /** Whether every workspace of the organization is visible to it (lists need no narrowing). */
  readsEveryWorkspace(): boolean {
    return this.boundWorkspaceId === undefined && this.grants.some((grant) => grant.workspaceId === null && covers(ROLES[grant.type].workspace, 'read'));
  }

  /** The workspaces it may read, when it does not read them all. */
  readableWorkspaces(): string[] {
    const named =
      this.boundWorkspaceId !== undefined ? [this.boundWorkspaceId] : this.grants.flatMap((grant) => (grant.workspaceId === null ? [] : [grant.workspaceId]));
    return [...new Set(named)].filter((id) => covers(this.onWorkspace(id), 'read'));
  }

  /** Whether it holds instance_admin, the only type that grants instance_admin. */
  isInstanceAdmin(): boolean {
    return this.boundWorkspaceId === undefined && this.grants.some((grant) => grant.type === 'instance_admin');
  }
}
