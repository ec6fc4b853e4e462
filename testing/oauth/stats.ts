import type { OAuthClientPair } from './clients.ts';

export type GrantKind = 'authorization_code' | 'refresh_token';

/** What `oauthStats()` and `GET /_sandbox/oauth` answer. */
export interface OAuthStats {
  /** Distinct client pairs accepted at the token endpoint, in order. */
  clients: OAuthClientPair[];
  /** Successful token endpoint grants, by grant type. */
  grants: Record<GrantKind, number>;
  /** Refusals of the OAuth endpoints (authorize, token, revoke), by the error code answered. */
  refused: Record<string, number>;
}

/** Counters behind OAuthStats. */
export class OAuthCounters {
  private readonly grants: Record<GrantKind, number> = { authorization_code: 0, refresh_token: 0 };
  private readonly refusals = new Map<string, number>();

  granted(kind: GrantKind): void {
    this.grants[kind]++;
  }

  refused(code: string): void {
    this.refusals.set(code, (this.refusals.get(code) ?? 0) + 1);
  }

  snapshot(clients: OAuthClientPair[]): OAuthStats {
    return { clients, grants: { ...this.grants }, refused: Object.fromEntries(this.refusals) };
  }
}
