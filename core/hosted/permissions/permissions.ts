import { randomUUID } from 'node:crypto';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Application, Store } from '../../stores/types.ts';
import type { TokenClaims } from '../token-claims.ts';
import type { Caller } from './caller.ts';
import { CallerDirectory } from './caller-directory.ts';
import { PermissionTable } from './permission-table.ts';
import { PublicPermissions } from './public-permissions.ts';
import { PublicUsers } from './public-users.ts';

/**
 * Users and permissions: every application is a user of its organization, made organization_admin
 * when it is made; what a token may do is what its application's permissions allow, read per request.
 */
export interface Permissions {
  /** Who a verified token is for, with its permissions as they are now (a 401 when its application is not of its organization). */
  callerOf(claims: TokenClaims): Promise<Caller>;
  /** Makes each application not yet a user one, as organization_admin (those made before permissions existed, at start); answers how many. */
  enroll(applications: readonly Application[]): Promise<number>;
  permissions: PublicPermissions;
  users: PublicUsers;
}

/** Over the cloud API's database (permissions) and the store (applications, workspaces); migratePermissions first. */
export function createPermissions(cloudDb: SqlDriver, store: Store, clock?: () => number): Permissions {
  const table = new PermissionTable(cloudDb);
  const directory = new CallerDirectory(store, table, clock);
  return {
    callerOf: (claims) => directory.callerOf(claims),
    async enroll(applications) {
      const enrolled = await table.enroll(
        applications.map((application) => ({ userId: application.id, organizationId: application.organization_id })),
        'organization_admin',
        randomUUID,
      );
      directory.forget();
      return enrolled;
    },
    permissions: new PublicPermissions(table, store, directory),
    users: new PublicUsers(store),
  };
}
