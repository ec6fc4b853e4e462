import type { SourceRecord } from '../protocol.ts';
import type { ApiAnswer, EmbeddedApi, SourceInput, Template } from './api.ts';
import { askConsent } from './oauth-consent.ts';
import { consentFailure, waitingFor } from './oauth-messages.ts';

/**
 * Sources connected by consent: a new one created, or a source whose grant is gone reconnected, with
 * the secret id the consent granted. Both are synchronous up to the popup's opening: call them from
 * the click. A failure of status 0 is a consent that granted nothing (the server was asked nothing).
 */
export class OAuthSources {
  /** A secret granted for a template whose source was then refused (a field to fix): the next try uses it without a new consent. */
  private pending: { templateId: string; secretId: string } | undefined;

  constructor(private readonly api: EmbeddedApi) {}

  /** A new source of the template, once the end user consented in the provider's window. */
  async create(template: Template, provider: string, input: SourceInput): Promise<ApiAnswer<SourceRecord>> {
    let secretId = this.pending?.templateId === template.id ? this.pending.secretId : undefined;
    if (secretId === undefined) {
      const granted = await this.consent(template, provider);
      if (!granted.ok) return granted;
      secretId = granted.data;
    }
    const answer = await this.api.createSource({ ...input, source_template_id: template.id, secret_id: secretId });
    this.pending = !answer.ok && answer.failure.error_code !== 'invalid_secret_id' ? { templateId: template.id, secretId } : undefined;
    return answer;
  }

  /** The source's credentials replaced by a new consent's (its grant was revoked or expired). */
  async reconnect(source: SourceRecord, template: Template, provider: string): Promise<ApiAnswer<SourceRecord>> {
    const granted = await this.consent(template, provider);
    if (!granted.ok) return granted;
    return this.api.updateSource(source.id, { secret_id: granted.data });
  }

  private async consent(template: Template, provider: string): Promise<ApiAnswer<string>> {
    const outcome = await askConsent(() => this.api.initiateOAuth(template.id), waitingFor(provider));
    return outcome.ok ? { ok: true, data: outcome.secretId } : { ok: false, failure: consentFailure(outcome, provider) };
  }
}
