import type { OAuthAuthority } from './authority.ts';
import type { OAuthStats } from './stats.ts';

/** What a sandbox object offers about its OAuth side: where its endpoints are, and the controls tests drive. */
export class OAuthSandbox {
  constructor(
    private readonly authority: OAuthAuthority,
    /** The authorization endpoint (the consent page). */
    readonly authorizeUrl: string,
    /** The token endpoint. */
    readonly tokenUrl: string,
  ) {}

  /** Clients accepted at the token endpoint, successful grants by type, refusals by error code. */
  oauthStats(): OAuthStats {
    return this.authority.stats();
  }

  /** Every access token issued so far expires now; refresh tokens stay good. */
  expireAccessTokens(): void {
    this.authority.book.expireAccessTokens();
  }

  /** Every grant is revoked: its refresh token and its access tokens die. */
  revokeGrants(): void {
    this.authority.book.revokeGrants();
  }

  /** The one grant behind `token` (a live access or refresh token) is revoked, as its user would; false when there is none. */
  revokeGrant(token: string): boolean {
    return this.authority.book.revoke(token);
  }
}
