import type { ApiTokenResponse } from '../api-types.ts';
import type { CloudClientConfig } from '../config.ts';
import { type Fetched, SharedValue } from '../../hosted-client/shared-value.ts';
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
  readonly #shared = new SharedValue<string>();

  constructor(
    private readonly config: CloudClientConfig,
    private readonly fetchToken: TokenFetcher,
  ) {}

  /** Whether a refused token can be replaced by a new one (not so for a fixed bearer token). */
  get renewable(): boolean {
    return this.config.usesClientCredentials;
  }

  async get(): Promise<string> {
    if (this.config.bearerToken) return this.config.bearerToken.reveal();
    return this.#shared.get(() => this.exchange());
  }

  /** A new token in place of `refused`, unless another request already replaced it. */
  async renew(refused: string): Promise<string> {
    this.#shared.discard(refused);
    return this.get();
  }

  private async exchange(): Promise<Fetched<string>> {
    const { clientId, clientSecret } = this.config;
    if (!clientId || !clientSecret) throw new CloudError('no client credentials to get an access token with');
    const answer = await this.fetchToken(clientId.reveal(), clientSecret.reveal());
    if (typeof answer?.access_token !== 'string') throw new CloudError('the token endpoint answered no access_token');
    const lifetimeMs = (answer.expires_in ?? 900) * 1000;
    // Renew early, but never so early that a short-lived token is not used at all.
    return { value: answer.access_token, validUntil: Date.now() + Math.max(lifetimeMs - EARLY_RENEWAL_MS, lifetimeMs / 2) };
  }
}
