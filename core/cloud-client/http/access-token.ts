import type { ApiTokenResponse } from '../api-types.ts';
import type { CloudClientConfig } from '../config.ts';
import { CloudError } from '../errors.ts';

/** A token is renewed this long before the server said it expires, so no request carries a dying one. */
const EARLY_RENEWAL_MS = 60_000;

export type TokenFetcher = (clientId: string, clientSecret: string) => Promise<ApiTokenResponse>;

/**
 * The bearer token requests carry. A configured bearer token is used as is; client credentials are
 * exchanged for an access token, cached until shortly before it expires and shared by concurrent
 * requests, and renewed when the server refuses it (`renew`).
 */
export class AccessToken {
  #current: Promise<{ token: string; expiresAt: number }> | undefined;

  constructor(
    private readonly config: CloudClientConfig,
    private readonly fetchToken: TokenFetcher,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a refused token can be replaced by a new one (not so for a fixed bearer token). */
  get renewable(): boolean {
    return this.config.usesClientCredentials;
  }

  async get(): Promise<string> {
    if (this.config.bearerToken) return this.config.bearerToken.reveal();
    const current = this.#current && (await this.#current.catch(() => undefined));
    if (current && current.expiresAt > this.now()) return current.token;
    return this.exchange();
  }

  /** A new token in place of `refused`, unless another request already replaced it. */
  async renew(refused: string): Promise<string> {
    const current = this.#current && (await this.#current.catch(() => undefined));
    if (current && current.token !== refused) return current.token;
    return this.exchange();
  }

  private async exchange(): Promise<string> {
    const { clientId, clientSecret } = this.config;
    if (!clientId || !clientSecret) throw new CloudError('no client credentials to get an access token with');
    const pending = this.fetchToken(clientId.reveal(), clientSecret.reveal()).then((answer) => {
      if (typeof answer?.access_token !== 'string') throw new CloudError('the token endpoint answered no access_token');
      const lifetimeMs = (answer.expires_in ?? 900) * 1000;
      // Renew early, but never so early that a short-lived token is not used at all.
      return { token: answer.access_token, expiresAt: this.now() + Math.max(lifetimeMs - EARLY_RENEWAL_MS, lifetimeMs / 2) };
    });
    this.#current = pending;
    return (await pending).token;
  }
}
