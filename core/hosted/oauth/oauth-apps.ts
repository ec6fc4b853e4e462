import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { credentialsUnavailable, UndecryptableValueError } from '../../security/data-keyring.ts';

/** Who registered an app: a workspace (for itself) or an organization (for every workspace of it). */
export interface AppOwner {
  kind: 'workspace' | 'organization';
  id: string;
  organizationId: string;
}

/** A tenant's OAuth client of a provider, opened: the secret in clear, for a token request only. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

/** The source type an app is registered for: its name, and the family of names it also serves (slack and chat). */
export interface AppSourceType {
  name: string;
  family: string;
}

/** A registered app as it may be shown: never its secret. */
export interface RegisteredApp {
  owner: AppOwner['kind'];
  ownerId: string;
  sourceType: string;
  clientId: string;
  updatedAt: number;
}

interface AppRow {
  owner_kind: AppOwner['kind'];
  source_type: string;
  client_id: string;
  key_id: string;
  ciphertext: string;
}

/**
 * The OAuth apps tenants register (Airbyte's OAuth credential overrides): per workspace or per
 * organization and source type, the client secret sealed with the data keys, never answered.
 */
export class OAuthApps {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Registers the owner's app for the type, replacing the one it had. */
  async put(owner: AppOwner, type: AppSourceType, client: OAuthClient): Promise<void> {
    const sealed = this.keyring.encrypt(client.clientSecret);
    await this.db.run(
      `INSERT INTO oauth_apps (owner_kind, owner_id, organization_id, source_type, connector_family, client_id, key_id, ciphertext, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner_kind, owner_id, source_type) DO UPDATE SET connector_family = excluded.connector_family, client_id = excluded.client_id,
         key_id = excluded.key_id, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
      [owner.kind, owner.id, owner.organizationId, type.name, type.family, client.clientId, sealed.key_id, sealed.ciphertext, this.clock()],
    );
  }

  /** Whether the owner had an app registered under exactly that name (now gone). */
  async remove(owner: AppOwner, sourceType: string): Promise<boolean> {
    const { changes } = await this.db.run('DELETE FROM oauth_apps WHERE owner_kind = ? AND owner_id = ? AND source_type = ?', [
      owner.kind,
      owner.id,
      sourceType,
    ]);
    return changes > 0;
  }

  /** The apps registered by the owners given (a workspace's, then its organization's), by source type: client ids, never secrets. */
  async list(owners: AppOwner[]): Promise<RegisteredApp[]> {
    const listed: RegisteredApp[] = [];
    for (const owner of owners) {
      const rows = await this.db.all<{ source_type: string; client_id: string; updated_at: number | string }>(
        'SELECT source_type, client_id, updated_at FROM oauth_apps WHERE owner_kind = ? AND owner_id = ? ORDER BY source_type',
        [owner.kind, owner.id],
      );
      for (const row of rows) {
        listed.push({ owner: owner.kind, ownerId: owner.id, sourceType: row.source_type, clientId: row.client_id, updatedAt: Number(row.updated_at) });
      }
    }
    return listed;
  }

  /**
   * The app a workspace's flow of the type uses: the workspace's before its organization's, and at
   * each level one registered under the exact name before one of the same family (a `slack` app
   * serves `chat` flows, and the reverse). Undefined when there is none.
   */
  async find(organizationId: string, workspaceId: string, type: AppSourceType): Promise<OAuthClient | undefined> {
    const rows = await this.db.all<AppRow>(
      `SELECT owner_kind, source_type, client_id, key_id, ciphertext FROM oauth_apps
       WHERE connector_family = ? AND ((owner_kind = 'workspace' AND owner_id = ?) OR (owner_kind = 'organization' AND owner_id = ?))`,
      [type.family, workspaceId, organizationId],
    );
    const rank = (row: AppRow) => (row.owner_kind === 'workspace' ? 0 : 2) + (row.source_type === type.name ? 0 : 1);
    const best = rows.sort((a, b) => rank(a) - rank(b) || a.source_type.localeCompare(b.source_type))[0];
    return best && { clientId: best.client_id, clientSecret: this.open(best) };
  }

  private open(row: AppRow): string {
    try {
      return this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext });
    } catch (error) {
      if (!(error instanceof UndecryptableValueError)) throw error;
      throw credentialsUnavailable("open the OAuth app's client secret", error);
    }
  }
}
