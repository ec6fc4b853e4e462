import { NotFoundError } from '../../errors.ts';
import type { DataKeyring } from '../../security/data-keyring.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { requireOrganization } from '../permissions/request-access.ts';
import type { OrganizationWebhook } from '../types.generated.ts';
import { checkWebhookUrl, maskedUrl, urlOrigin } from './webhook-urls.ts';

interface Row {
  url_origin: string;
  key_id: string;
  ciphertext: string;
  updated_at: number | string;
}

/**
 * Each organization's webhook for its embedded sources' events, set by its operator: the URL checked
 * (http(s), allowed by the egress policy) and sealed; answers show its scheme and host only.
 */
export class OrganizationWebhooks {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly egress: EgressPolicy,
    private readonly clock: () => number,
  ) {}

  async set(organizationId: string, url: string): Promise<OrganizationWebhook> {
    requireOrganization();
    await checkWebhookUrl(url, this.egress, ['body', 'url']);
    const sealed = this.keyring.encrypt(url);
    const now = this.clock();
    await this.db.run(
      `INSERT INTO organization_webhooks (organization_id, url_origin, key_id, ciphertext, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (organization_id) DO UPDATE SET url_origin = excluded.url_origin, key_id = excluded.key_id, ciphertext = excluded.ciphertext,
         updated_at = excluded.updated_at`,
      [organizationId, urlOrigin(url), sealed.key_id, sealed.ciphertext, now],
    );
    return { url: maskedUrl(url), updated_at: new Date(now).toISOString() };
  }

  /** A 404 `webhook_not_set` when there is none. */
  async get(organizationId: string): Promise<OrganizationWebhook> {
    requireOrganization();
    const row = await this.row(organizationId);
    if (!row) throw webhookNotSet();
    return { url: maskedUrl(row.url_origin), updated_at: new Date(Number(row.updated_at)).toISOString() };
  }

  async delete(organizationId: string): Promise<void> {
    requireOrganization();
    const { changes } = await this.db.run('DELETE FROM organization_webhooks WHERE organization_id = ?', [organizationId]);
    if (changes === 0) throw webhookNotSet();
  }

  /** The URL in clear, to send to; undefined when none is set. */
  async url(organizationId: string): Promise<string | undefined> {
    const row = await this.row(organizationId);
    return row && this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext });
  }

  private row(organizationId: string): Promise<Row | undefined> {
    return this.db.get<Row>('SELECT url_origin, key_id, ciphertext, updated_at FROM organization_webhooks WHERE organization_id = ?', [organizationId]);
  }
}

export function webhookNotSet(): NotFoundError {
  return new NotFoundError('The organization has no webhook', 'webhook_not_set');
}
