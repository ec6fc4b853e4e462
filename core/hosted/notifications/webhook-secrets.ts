import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { newWebhookSecret } from './standard-webhooks.ts';

/** Whose secret: a workspace's (its notifications) or an organization's (its embedded webhook). */
export type WebhookOwnerKind = 'workspace' | 'organization';

export interface WebhookOwner {
  kind: WebhookOwnerKind;
  id: string;
}

/** How long the secret a rotation replaced keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

interface SecretRow {
  key_id: string;
  ciphertext: string;
  previous_key_id: string | null;
  previous_ciphertext: string | null;
  previous_until: number | string | null;
}

/**
 * Each owner's Standard Webhooks secret, sealed with the data keys. It is made by the first rotation,
 * which answers it once; until then deliveries go unsigned, as Airbyte's do. A rotation keeps the
 * replaced secret signing for a day (a second `v1,` entry), so a receiver switches without a gap.
 */
export class WebhookSecrets {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly clock: () => number,
  ) {}

  /** A new secret for the owner, answered once; the one it replaces signs beside it until `previousValidUntil`. */
  async rotate(owner: WebhookOwner): Promise<{ secret: string; previousValidUntil?: string }> {
    const secret = newWebhookSecret();
    const sealed = this.keyring.encrypt(secret);
    const now = this.clock();
    const until = now + ROTATION_OVERLAP_MS;
    await this.db.run(
      `INSERT INTO webhook_secrets (owner_kind, owner_id, key_id, ciphertext, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner_kind, owner_id) DO UPDATE SET previous_key_id = webhook_secrets.key_id, previous_ciphertext = webhook_secrets.ciphertext,
         previous_until = ?, key_id = excluded.key_id, ciphertext = excluded.ciphertext, created_at = excluded.created_at`,
      [owner.kind, owner.id, sealed.key_id, sealed.ciphertext, now, until],
    );
    const row = await this.row(owner);
    return { secret, ...(row?.previous_key_id ? { previousValidUntil: new Date(until).toISOString() } : {}) };
  }

  /** The secrets that sign the owner's deliveries now: none before the first rotation, two during a rotation's overlap. */
  async signing(owner: WebhookOwner): Promise<string[]> {
    const row = await this.row(owner);
    if (!row) return [];
    const secrets = [this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext })];
    if (row.previous_key_id && row.previous_ciphertext && Number(row.previous_until) > this.clock()) {
      secrets.push(this.keyring.decrypt({ key_id: row.previous_key_id, ciphertext: row.previous_ciphertext }));
    }
    return secrets;
  }

  async forget(owner: WebhookOwner): Promise<void> {
    await this.db.run('DELETE FROM webhook_secrets WHERE owner_kind = ? AND owner_id = ?', [owner.kind, owner.id]);
  }

  private row(owner: WebhookOwner): Promise<SecretRow | undefined> {
    return this.db.get<SecretRow>(
      'SELECT key_id, ciphertext, previous_key_id, previous_ciphertext, previous_until FROM webhook_secrets WHERE owner_kind = ? AND owner_id = ?',
      [owner.kind, owner.id],
    );
  }
}
