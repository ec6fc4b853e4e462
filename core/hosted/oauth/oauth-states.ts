import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { epochMs, type FlowBinding, hashOf, randomToken } from './flow-binding.ts';

/** How long a consent may take, from the consent URL to the callback. */
export const STATE_TTL_MS = 10 * 60_000;

/** A consent in progress, as the callback finds it. */
export interface PendingConsent extends FlowBinding {
  /** The redirect_uri the provider was given: Plugboard's callback, which the code exchange names again. */
  callbackUrl: string;
  /** Where the browser goes once the callback is done. */
  redirectUrl: string;
  /** The app the consent was asked for: the code is that client's. */
  clientId: string;
  clientSecret: string;
  /** The PKCE verifier, for a provider that takes PKCE. */
  codeVerifier?: string;
}

interface StateRow {
  flow: FlowBinding['flow'];
  organization_id: string;
  workspace_id: string;
  source_type: string;
  callback_url: string;
  redirect_url: string;
  key_id: string;
  ciphertext: string;
  expires_at: number | string;
}

/** The sealed part of a state: what the exchange sends the provider. */
interface SealedPart {
  client_id: string;
  client_secret: string;
  code_verifier?: string;
}

/**
 * The `state` of each consent in progress: unguessable, single-use, expiring. Kept by hash; the
 * client secret and PKCE verifier sealed with the data keys.
 */
export class OAuthStates {
  constructor(
    private readonly db: SqlDriver,
    private readonly keyring: DataKeyring,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new state for the consent, valid STATE_TTL_MS; expired ones are purged on the way. */
  async open(consent: PendingConsent): Promise<string> {
    const now = this.clock();
    await this.db.run('DELETE FROM oauth_states WHERE expires_at <= ?', [now]);
    const state = randomToken();
    const sealed: SealedPart = {
      client_id: consent.clientId,
      client_secret: consent.clientSecret,
      ...(consent.codeVerifier ? { code_verifier: consent.codeVerifier } : {}),
    };
    const { key_id, ciphertext } = this.keyring.encrypt(JSON.stringify(sealed));
    await this.db.run(
      `INSERT INTO oauth_states (state_hash, flow, organization_id, workspace_id, source_type, callback_url, redirect_url, key_id, ciphertext, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hashOf(state),
        consent.flow,
        consent.organizationId,
        consent.workspaceId,
        consent.sourceType,
        consent.callbackUrl,
        consent.redirectUrl,
        key_id,
        ciphertext,
        now + STATE_TTL_MS,
      ],
    );
    return state;
  }

  /**
   * The consent of a state, at most once: whoever deletes the row has it, so of two callbacks with the
   * same state one gets it and the other nothing. Unknown, taken or expired: undefined.
   */
  async take(state: string): Promise<PendingConsent | undefined> {
    const key = hashOf(state);
    const row = await this.db.get<StateRow>(
      'SELECT flow, organization_id, workspace_id, source_type, callback_url, redirect_url, key_id, ciphertext, expires_at FROM oauth_states WHERE state_hash = ?',
      [key],
    );
    if (!row) return undefined;
    const { changes } = await this.db.run('DELETE FROM oauth_states WHERE state_hash = ?', [key]);
    if (changes !== 1 || epochMs(row.expires_at) <= this.clock()) return undefined;
    const sealed = JSON.parse(this.keyring.decrypt({ key_id: row.key_id, ciphertext: row.ciphertext })) as SealedPart;
    return {
      flow: row.flow,
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      sourceType: row.source_type,
      callbackUrl: row.callback_url,
      redirectUrl: row.redirect_url,
      clientId: sealed.client_id,
      clientSecret: sealed.client_secret,
      ...(sealed.code_verifier ? { codeVerifier: sealed.code_verifier } : {}),
    };
  }
}
