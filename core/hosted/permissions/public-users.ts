import { AccessDeniedError } from '../../errors.ts';
import type { Application, Store } from '../../stores/types.ts';
import type { PublicUser } from '../types.generated.ts';
import type { Caller } from './caller.ts';
import { requireOrganization } from './request-access.ts';

export interface UserFilter {
  organizationId: string;
  /** Only these ids (lowercased); none: any. */
  ids: readonly string[];
  /** Only these emails (any case); none: any. */
  emails: readonly string[];
}

/**
 * The users of an organization: its applications, each named by its client id (which its operator
 * holds) with an address derived from it under the deployment's domain, reaching nobody: applications
 * keep no name or email of their own, and the official shape requires both.
 */
export class PublicUsers {
  constructor(private readonly store: Store) {}

  /** Those of the caller's organization that match, oldest first; the organization's readers see them. */
  async list(caller: Caller, filter: UserFilter, deploymentEmail: string): Promise<PublicUser[]> {
    if (filter.organizationId.toLowerCase() !== caller.organizationId) throw new AccessDeniedError();
    requireOrganization('read');
    const emails = filter.emails.map((email) => email.toLowerCase());
    return (await this.store.listApplications(caller.organizationId))
      .map((application) => userOf(application, deploymentEmail))
      .filter((user) => (filter.ids.length === 0 || filter.ids.includes(user.id)) && (emails.length === 0 || emails.includes(user.email.toLowerCase())));
  }
}

/** An application as a user: `application <client id>`, `<client id>@applications.<domain of the deployment's address>`. */
export function userOf(application: Application, deploymentEmail: string): PublicUser {
  const domain = deploymentEmail.slice(deploymentEmail.lastIndexOf('@') + 1);
  return { id: application.id, name: `application ${application.client_id}`, email: `${application.client_id}@applications.${domain}` };
}
