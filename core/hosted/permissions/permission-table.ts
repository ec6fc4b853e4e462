import { isUniqueViolation, type SqlDriver } from '../../stores/sql-driver.ts';
import type { PermissionType } from './roles.ts';

/** A stored permission. `workspace_id` null: an organization (or instance) permission. `created_at` is epoch ms. */
export interface PermissionRow {
  id: string;
  user_id: string;
  organization_id: string;
  workspace_id: string | null;
  permission_type: PermissionType;
  created_at: number;
}

/** The user already has a permission of that scope. */
export class PermissionExistsError extends Error {}

/** Serialises changes of an organization's permissions across processes, so its last admin can't be taken by two at once. */
const CHANGE_LOCK = 7_263_111;

/** The rows of permission_users and permissions. */
export class PermissionTable {
  constructor(private readonly driver: SqlDriver) {}

  /** Those users not yet enrolled are, each with a first permission; answers how many were. */
  enroll(users: ReadonlyArray<{ userId: string; organizationId: string }>, first: PermissionType, newId: () => string): Promise<number> {
    if (users.length === 0) return Promise.resolve(0);
    return this.driver.transaction(async (tx) => {
      const now = Date.now();
      let enrolled = 0;
      for (const { userId, organizationId } of users) {
        const { changes } = await tx.run(
          'INSERT INTO permission_users (user_id, organization_id, enrolled_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING',
          [userId, organizationId, now],
        );
        if (changes === 0) continue;
        await insertRow(tx, { id: newId(), user_id: userId, organization_id: organizationId, workspace_id: null, permission_type: first, created_at: now });
        enrolled += 1;
      }
      return enrolled;
    }, CHANGE_LOCK);
  }

  /** A user's permissions in an organization, oldest first. */
  ofUser(userId: string, organizationId: string): Promise<PermissionRow[]> {
    return this.rows('WHERE user_id = ? AND organization_id = ?', [userId, organizationId]);
  }

  /** The organization's permissions, oldest first. */
  ofOrganization(organizationId: string): Promise<PermissionRow[]> {
    return this.rows('WHERE organization_id = ?', [organizationId]);
  }

  async get(id: string): Promise<PermissionRow | undefined> {
    return (await this.rows('WHERE id = ?', [id]))[0];
  }

  /** Adds it; PermissionExistsError when its user has one of that scope. */
  insert(row: PermissionRow): Promise<void> {
    return insertRow(this.driver, row);
  }

  /**
   * Changes (a new type) or deletes (null) a permission in one transaction, after `allowed` has seen the
   * organization's permissions as they are then (it throws to refuse); false when it is gone.
   */
  change(id: string, type: PermissionType | null, allowed: (rows: PermissionRow[], row: PermissionRow) => void): Promise<boolean> {
    return this.driver.transaction(async (tx) => {
      const row = await tx.get<PermissionRow>('SELECT * FROM permissions WHERE id = ?', [id]);
      if (!row) return false;
      allowed(await tx.all<PermissionRow>('SELECT * FROM permissions WHERE organization_id = ?', [row.organization_id]), toRow(row));
      const { changes } =
        type === null
          ? await tx.run('DELETE FROM permissions WHERE id = ?', [id])
          : await tx.run('UPDATE permissions SET permission_type = ? WHERE id = ?', [type, id]);
      return changes > 0;
    }, CHANGE_LOCK);
  }

  private async rows(where: string, params: string[]): Promise<PermissionRow[]> {
    return (await this.driver.all<PermissionRow>(`SELECT * FROM permissions ${where} ORDER BY created_at, id`, params)).map(toRow);
  }
}

async function insertRow(driver: SqlDriver, row: PermissionRow): Promise<void> {
  try {
    await driver.run('INSERT INTO permissions (id, user_id, organization_id, workspace_id, permission_type, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      row.id,
      row.user_id,
      row.organization_id,
      row.workspace_id,
      row.permission_type,
      row.created_at,
    ]);
  } catch (error) {
    throw isUniqueViolation(error) ? new PermissionExistsError() : error;
  }
}

/** PostgreSQL answers BIGINT as text. */
function toRow(row: PermissionRow): PermissionRow {
  return { ...row, created_at: Number(row.created_at) };
}
