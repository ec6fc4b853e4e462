import { NotFoundError } from '../../errors.ts';
import type { Organization, Store } from '../../stores/types.ts';
import type { ConfigOrganizationInfo, PublicOrganizationList } from '../types.generated.ts';
import { requireOrganization } from '../permissions/request-access.ts';
import { workspaceOf } from './organization-workspaces.ts';

/**
 * Organizations through the public cloud API and the config API: a token reaches one organization,
 * its own, so that is the only one listed or described; any other is not found.
 */
export class PublicOrganizations {
  constructor(private readonly store: Store) {}

  /** The caller's organization, with the deployment's contact address: organizations keep no email of their own. */
  async list(organizationId: string, email: string): Promise<PublicOrganizationList> {
    const organization = await this.find(organizationId, organizationId);
    return { data: [{ organizationId: organization.id, organizationName: organization.name, email }] };
  }

  /** The caller's organization, to its readers. */
  async info(callerOrganizationId: string, organizationId: string): Promise<ConfigOrganizationInfo> {
    const organization = await this.find(callerOrganizationId, organizationId);
    requireOrganization('read');
    return infoOf(organization);
  }

  /** The organization of one of its workspaces. */
  async infoOfWorkspace(callerOrganizationId: string, workspaceId: string): Promise<ConfigOrganizationInfo> {
    const workspace = await workspaceOf(this.store, callerOrganizationId, workspaceId);
    return infoOf(await this.find(callerOrganizationId, workspace.organization_id));
  }

  private async find(callerOrganizationId: string, id: string): Promise<Organization> {
    const organization = id.toLowerCase() === callerOrganizationId ? await this.store.getOrganization(callerOrganizationId) : null;
    if (!organization) throw new NotFoundError(`Organization ${id} not found`, 'organization_not_found');
    return organization;
  }
}

/** Plugboard has neither single sign-on nor SCIM provisioning. */
function infoOf(organization: Organization): ConfigOrganizationInfo {
  return { organizationId: organization.id, organizationName: organization.name, sso: false, scim: false };
}
