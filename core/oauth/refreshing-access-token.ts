import { CredentialsExpiredError } from '../errors.ts';
import { refreshTokens, type TokenEndpoint } from './token-endpoint.ts';

/** A refreshable credential's live tokens. */
export interface TokenState {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms; undefined when unknown (refreshed only when the upstream says it expired). */
  expiresAt?: number;
}

/**
 * Where a credential's live tokens are kept, and the one place its refreshes go through, so that
 * concurrent callers (in this process and, where the keeper can, in others) share one refresh.
 */
export interface TokenKeeper {
  /**
   * Renews the credential whose access token was `stale`: when the kept state still holds it, runs
   * `grant` on that state and keeps what it returns; when another flight already renewed it, returns
   * the kept state as is. A `CredentialsExpiredError` from `grant` is kept too (the grant is gone).
   */
  renew(stale: string, grant: (current: TokenState) => Promise<TokenState>): Promise<TokenState>;
}

/** Refreshed this long before the access token's expiry, so a call never leaves with a token about to die. */
export const REFRESH_SKEW_MS = 60_000;

/**
 * One connector instance's access token: refreshed before it expires (with skew) and once more when
 * the upstream says it expired. Refreshes go through the keeper; once the grant is gone, every call
 * fails at once with `credentials_expired` instead of asking the provider again.
 */
export class RefreshingAccessToken {
  private flight: Promise<TokenState> | undefined;
  private expired: CredentialsExpiredError | undefined;
  /** When the current state was taken: a token's lifetime is measured from here. */
  private stateSince = Date.now();

  constructor(
    private state: TokenState,
    private readonly endpoint: TokenEndpoint,
    private readonly keeper: TokenKeeper,
    /** The skew, shortened for a token that lives less than twice as long (a sandbox's 2 s tokens). */
    private readonly skewMs = REFRESH_SKEW_MS,
  ) {}

  /** The access token to send now: renewed first when it is about to expire. */
  async current(): Promise<string> {
    if (this.expired) throw this.expired;
    const { expiresAt } = this.state;
    if (expiresAt !== undefined && Date.now() + this.skewFor(expiresAt) >= expiresAt) return (await this.renew(this.state.accessToken)).accessToken;
    return this.state.accessToken;
  }

  /** After the upstream refused `used` as expired: the token to retry with (renewed unless someone already did). */
  async afterRejection(used: string): Promise<string> {
    if (this.expired) throw this.expired;
    if (this.state.accessToken !== used) return this.state.accessToken;
    return (await this.renew(used)).accessToken;
  }

  private renew(stale: string): Promise<TokenState> {
    this.flight ??= this.keeper
      .renew(stale, async (current) => {
        const granted = await refreshTokens(this.endpoint, current.refreshToken);
        return { accessToken: granted.accessToken, refreshToken: granted.refreshToken ?? current.refreshToken, expiresAt: granted.expiresAt };
      })
      .then(
        (renewed) => {
          this.state = renewed;
          this.stateSince = Date.now();
          return renewed;
        },
        (error: unknown) => {
          if (error instanceof CredentialsExpiredError) this.expired = error;
          throw error;
        },
      )
      .finally(() => {
        this.flight = undefined;
      });
    return this.flight;
  }

  /** A token living less than twice the skew (issued for seconds) is renewed at half its life, not a minute early. */
  private skewFor(expiresAt: number): number {
    return Math.min(this.skewMs, Math.max(0, (expiresAt - this.stateSince) / 2));
  }
}
