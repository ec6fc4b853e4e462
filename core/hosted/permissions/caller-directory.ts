import { AuthenticationError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import { WORKSPACE_SCOPE_CLAIM, type TokenClaims } from '../token-claims.ts';
import { Caller, type Grant } from './caller.ts';
import type { PermissionTable } from './permission-table.ts';

/** How long a user's permissions are reused: a change made on another instance shows within it. */
export const GRANTS_CACHE_MS = 1_000;

/**
 * Finds who a token is for, with its permissions as they are now (read again after GRANTS_CACHE_MS,
 * at once after a change made here), so a permission taken away stops its holder's tokens within a
 * second. An operator token names its application by client id, a workspace token by the id of the
 * application that minted it; a token whose application is not of its organization is a 401.
 */
export class CallerDirectory {
  private readonly grants = new Map<string, { grants: Grant[]; readAt: number }>();
  /** Client id → application id and organization: neither ever changes. */
  private readonly clients = new Map<string, { id: string; organizationId: string }>();

  constructor(
    private readonly store: Store,
    private readonly table: PermissionTable,
    private readonly clock: () => number = Date.now,
  ) {}

  async callerOf(claims: TokenClaims): Promise<Caller> {
    const userId = claims.token_use === 'operator' ? await this.applicationOf(claims.sub, claims.organization_id) : claims.application_id;
    const grants = await this.grantsOf(userId, claims.organization_id);
    const bound = claims.token_use === 'operator' ? undefined : claims[WORKSPACE_SCOPE_CLAIM].workspaceId;
    return new Caller(claims.organization_id, userId, grants, bound);
  }

  /** Forgets what was read: a permission changed here counts from the next request. */
  forget(): void {
    this.grants.clear();
  }

  private async applicationOf(clientId: string, organizationId: string): Promise<string> {
    let known = this.clients.get(clientId);
    if (!known) {
      const application = await this.store.findApplicationByClientId(clientId);
      if (!application) throw new AuthenticationError();
      known = { id: application.id, organizationId: application.organization_id };
      this.clients.set(clientId, known);
    }
    if (known.organizationId !== organizationId) throw new AuthenticationError();
    return known.id;
  }

  private async grantsOf(userId: string, organizationId: string): Promise<Grant[]> {
    const key = `${userId}/${organizationId}`;
    const cached = this.grants.get(key);
    if (cached && this.clock() - cached.readAt < GRANTS_CACHE_MS) return cached.grants;
    const grants = (await this.table.ofUser(userId, organizationId)).map((row) => ({ type: row.permission_type, workspaceId: row.workspace_id }));
    this.grants.set(key, { grants, readAt: this.clock() });
    return grants;
  }
}
