import { randomUUID } from 'node:crypto';
import { AccessDeniedError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import { workspaceOf } from '../cloud-api/organization-workspaces.ts';
import type { PublicPermission, PublicPermissionCreateRequest, PublicPermissionList } from '../types.generated.ts';
import type { Caller } from './caller.ts';
import type { CallerDirectory } from './caller-directory.ts';
import { beyondOwnRole, lastOrganizationAdmin, permissionExists, permissionNotFound, scopeMismatch, userNotFound } from './permission-errors.ts';
import { PermissionExistsError, type PermissionRow, type PermissionTable } from './permission-table.ts';
import { administersOrganization, covers, ROLES, type PermissionType } from './roles.ts';

/**
 * Permissions through the public cloud API: a user's (an application's) type in its organization or
 * in one of its workspaces. Only who administers a scope changes its permissions, never beyond its own
 * (instance_admin only by an instance_admin), and an organization always keeps an organization_admin.
 * A caller sees its own permissions and those of the scopes it administers.
 */
export class PublicPermissions {
  constructor(
    private readonly table: PermissionTable,
    private readonly store: Store,
    private readonly directory: CallerDirectory,
  ) {}

  async create(caller: Caller, input: PublicPermissionCreateRequest): Promise<PublicPermission> {
    if (input.organizationId !== undefined && input.organizationId.toLowerCase() !== caller.organizationId) throw new AccessDeniedError();
    const userId = input.userId.toLowerCase();
    const applications = await this.store.listApplications(caller.organizationId);
    if (!applications.some((application) => application.id === userId)) throw userNotFound(input.userId);
    const workspaceId = await this.scopeOf(caller, input.permissionType, input.workspaceId);
    const row: PermissionRow = {
      id: randomUUID(),
      user_id: userId,
      organization_id: caller.organizationId,
      workspace_id: workspaceId,
      permission_type: input.permissionType,
      created_at: Date.now(),
    };
    await this.table.insert(row).catch((error: unknown) => {
      throw error instanceof PermissionExistsError ? permissionExists() : error;
    });
    this.directory.forget();
    return toPublic(row);
  }

  async get(caller: Caller, id: string): Promise<PublicPermission> {
    const row = await this.find(caller, id);
    if (row.user_id !== caller.userId && !administers(caller, row)) throw new AccessDeniedError();
    return toPublic(row);
  }

  /** A new type, of the same scope (a workspace's stays a workspace's). */
  async update(caller: Caller, id: string, type: PermissionType): Promise<PublicPermission> {
    const row = await this.find(caller, id);
    if ((ROLES[type].scope === 'workspace') !== (row.workspace_id !== null)) {
      throw scopeMismatch(`A ${row.workspace_id === null ? 'organization' : 'workspace'} permission keeps its scope: delete it and create another`);
    }
    this.mayChange(caller, row, type);
    if (!(await this.table.change(row.id, type, (rows, current) => keepsAnAdmin(rows, current, type)))) throw permissionNotFound(id);
    this.directory.forget();
    return toPublic({ ...row, permission_type: type });
  }

  async delete(caller: Caller, id: string): Promise<void> {
    const row = await this.find(caller, id);
    this.mayChange(caller, row, undefined);
    if (!(await this.table.change(row.id, null, (rows, current) => keepsAnAdmin(rows, current, undefined)))) throw permissionNotFound(id);
    this.directory.forget();
  }

  /**
   * The permissions of the caller's organization it may see, oldest first: a user's (default the
   * caller's own), or with `organizationId` alone every user's.
   */
  async list(caller: Caller, filter: { userId?: string; organizationId?: string }): Promise<PublicPermissionList> {
    if (filter.organizationId !== undefined && filter.organizationId.toLowerCase() !== caller.organizationId) throw new AccessDeniedError();
    const userId = filter.userId?.toLowerCase() ?? (filter.organizationId === undefined ? caller.userId : undefined);
    const rows = await this.table.ofOrganization(caller.organizationId);
    const seen = rows.filter((row) => (userId === undefined || row.user_id === userId) && (row.user_id === caller.userId || administers(caller, row)));
    return {
      data: seen.map((row) => ({
        permissionId: row.id,
        permissionType: row.permission_type,
        userId: row.user_id,
        scope: row.workspace_id === null ? 'organization' : 'workspace',
        scopeId: row.workspace_id ?? row.organization_id,
      })),
    };
  }

  /** The workspace a new permission of this type is for (null: the organization), which the caller must administer. */
  private async scopeOf(caller: Caller, type: PermissionType, workspaceId: string | undefined): Promise<string | null> {
    if (ROLES[type].scope !== 'workspace') {
      if (workspaceId !== undefined) throw scopeMismatch(`${type} is an organization permission: give no workspaceId`);
      this.mayChange(caller, null, type);
      return null;
    }
    if (workspaceId === undefined) throw scopeMismatch(`${type} is a workspace permission: give its workspaceId`);
    const workspace = await workspaceOf(this.store, caller.organizationId, workspaceId);
    this.mayChange(caller, { workspace_id: workspace.id, permission_type: type }, type);
    return workspace.id;
  }

  /** Refuses (403) a change of `row` (null: a new one) to `type` (undefined: its deletion) the caller's own role does not cover. */
  private mayChange(caller: Caller, row: Pick<PermissionRow, 'workspace_id' | 'permission_type'> | null, type: PermissionType | undefined): void {
    const workspaceId = row?.workspace_id ?? null;
    if (!(workspaceId === null ? covers(caller.onOrganization(), 'admin') : covers(caller.onWorkspace(workspaceId), 'admin'))) {
      throw beyondOwnRole(`Only an administrator of the ${workspaceId === null ? 'organization' : 'workspace'} changes its permissions`);
    }
    if ((type === 'instance_admin' || row?.permission_type === 'instance_admin') && !caller.isInstanceAdmin()) {
      throw beyondOwnRole('Only an instance_admin grants or takes away instance_admin');
    }
  }

  private async find(caller: Caller, id: string): Promise<PermissionRow> {
    const row = await this.table.get(id.toLowerCase());
    if (!row || row.organization_id !== caller.organizationId) throw permissionNotFound(id);
    return row;
  }
}

/** Whether the caller administers the scope of a permission (and so sees and changes it). */
function administers(caller: Caller, row: PermissionRow): boolean {
  return covers(row.workspace_id === null ? caller.onOrganization() : caller.onWorkspace(row.workspace_id), 'admin');
}

/** Refuses the change that would leave the organization without an administrator. */
function keepsAnAdmin(rows: PermissionRow[], current: PermissionRow, type: PermissionType | undefined): void {
  if (!administersOrganization(current.permission_type) || (type !== undefined && administersOrganization(type))) return;
  if (!rows.some((row) => row.id !== current.id && administersOrganization(row.permission_type))) throw lastOrganizationAdmin();
}

function toPublic(row: PermissionRow): PublicPermission {
  return {
    permissionId: row.id,
    permissionType: row.permission_type,
    userId: row.user_id,
    ...(row.workspace_id === null ? { organizationId: row.organization_id } : { workspaceId: row.workspace_id }),
  };
}
