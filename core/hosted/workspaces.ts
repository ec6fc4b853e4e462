import { randomUUID } from 'node:crypto';
import type { Store, Workspace } from '../stores/types.ts';
import { checkRegionId, DEFAULT_REGION_ID } from './regions.ts';
import { requireOrganization, requireWorkspace } from './permissions/request-access.ts';
import { forTokenSubject } from './stale-token.ts';

/**
 * The cloud side of workspaces (where a workspace the server does not hold yet may already exist). The built-in implementation is local: this
 * deployment is its own cloud, so nothing exists there that is not also recorded here, and creating
 * one there only mints its id. The cloud API client plugs in here later.
 */
export interface CloudWorkspaceDirectory {
  find(organizationId: string, name: string): Promise<{ id: string } | null>;
  create(organizationId: string, name: string, regionId: string): Promise<{ id: string }>;
}

export class LocalWorkspaceDirectory implements CloudWorkspaceDirectory {
  async find(): Promise<{ id: string } | null> {
    return null;
  }

  async create(): Promise<{ id: string }> {
    return { id: randomUUID() };
  }
}

/**
 * The workspace rules of scoped-token issuance: an existing workspace is returned as is; otherwise one that exists in the cloud
 * gets only a local record, and a new one is created in the cloud and locally. `region_id` counts only then.
 */
export async function resolveWorkspace(
  store: Store,
  cloud: CloudWorkspaceDirectory,
  organizationId: string,
  name: string,
  regionId?: string,
): Promise<Workspace> {
  const region = regionId === undefined ? DEFAULT_REGION_ID : checkRegionId(regionId, ['body', 'region_id']);
  const existing = await store.findWorkspaceByName(organizationId, name);
  if (existing) {
    requireWorkspace(existing.id);
    return existing;
  }
  // Provisioning one is making a workspace, which its organization's administrators do.
  requireOrganization('admin');
  const remote = (await cloud.find(organizationId, name)) ?? (await cloud.create(organizationId, name, region));
  return forTokenSubject(
    store.createWorkspaceIfAbsent({ id: remote.id, organization_id: organizationId, name, region_id: region, created_at: new Date().toISOString() }),
  );
}
