import { BadRequestError } from '../../errors.ts';
import type { DataKeyring } from '../../security/data-keyring.ts';
import type { OAuthCredentials } from '../../sdk/index.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { epochMs, type FlowBinding, hashOf, randomToken } from './flow-binding.ts';

/** How long the secret a consent granted waits for the source it is meant for. */
export const SECRET_TTL_MS = 60 * 60_000;

interface SecretRow {
  flow: FlowBinding['flow'];
  organization_id: string;
  workspace_id: string;
  source_type: string;
  key_id: string;
  ciphertext: string;
  claimed_at: number | string | null;
  expires_at: number | string;
}

/** 400 `invalid_secret_id`: the id names no secret this request may use. Never says more than which rule it broke. */
export function invalidSecretId(why: string): BadRequestError {
  return new BadRequestError(`invalid_secret_id: ${why}; connect the account again for a new one`, 'invalid_secret_id');
}

/**
 * OAuth secrets: what a consent granted (access and refresh tokens, the client that holds them, its
 * token URL), sealed, bound to a flow, a workspace and a source type, waiting for the one source that
 * takes it. Kept by the hash of its id; single-use; expiring after SECRET_TTL_MS.
 */
export class OAuthSecrets {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Keeps the credentials for a source of the binding; answers the secret id. Expired secrets are purged on the way. */
  async keep(binding: FlowBinding, credentials: OAuthCredentials): Promise<string> {
    const now = this.clock();
    await this.db.run('DELETE FROM oauth_secrets WHERE expires_at <= ?', [now]);
    const id = randomToken();
    const { key_id, ciphertext } = this.keyring.encrypt(JSON.stringify(credentials));
    await this.db.run(
      `INSERT INTO oauth_secrets (id_hash, flow, organization_id, workspace_id, source_type, key_id, ciphertext, claimed_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
      [hashOf(id), binding.flow, binding.organizationId, binding.workspaceId, binding.sourceType, key_id, ciphertext, now + SECRET_TTL_MS],
    );
    return id;
  }

  /**
   * Runs `use` with the secret's credentials, once: the secret must be of the binding (flow,
   * organization, workspace, source type: else a 400 `invalid_secret_id`, and it stays for its own
   * source), unexpired, and not taken. It is claimed first (of two concurrent uses, one gets it), then
   * gone when `use` succeeds; when `use` fails (a configuration refused, credentials the upstream
   * turned down) the claim is released, so the end user can try again without a new consent.
   */
  async spend<T>(secretId: string, binding: FlowBinding, use: (credentials: OAuthCredentials) => Promise<T>): Promise<T> {
    const key = hashOf(secretId);
    const row = await this.db.get<SecretRow>(
      'SELECT flow, organization_id, workspace_id, source_type, key_id, ciphertext, claimed_at, expires_at FROM oauth_secrets WHERE id_hash = ?',
      [key],
    );
    const now = this.clock();
    if (!row || row.claimed_at !== null || epochMs(row.expires_at) <= now) throw invalidSecretId('the secret id is unknown, used or expired');
    if (row.flow !== binding.flow) throw invalidSecretId(`the secret was made for ${row.flow === 'embedded' ? 'an embedded source' : 'a public API source'}`);
    if (row.organization_id !== binding.organizationId || row.workspace_id !== binding.workspaceId) {
      throw invalidSecretId("the secret was made for another workspace than the source's");
    }
    if (row.source_type !== binding.sourceType) throw invalidSecretId(`the secret was made for a source of type ${row.source_type}, not ${binding.sourceType}`);
    const claimed = await this.db.run('UPDATE oauth_secrets SET claimed_at = ? WHERE id_hash = ? AND claimed_at IS NULL AND expires_at > ?', [now, key, now]);
    if (claimed.changes !== 1) throw invalidSecretId('the secret id is unknown, used or expired');
    const credentials = JSON.parse(this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext })) as OAuthCredentials;
    let result: T;
    try {
      result = await use(credentials);
    } catch (error) {
      await this.db.run('UPDATE oauth_secrets SET claimed_at = NULL WHERE id_hash = ?', [key]);
      throw error;
    }
    await this.db.run('DELETE FROM oauth_secrets WHERE id_hash = ?', [key]);
    return result;
  }
}
