import type { PkceChallenge } from './pkce.ts';

/** How a provider's codes and tokens look (`xoxe-1-…`, `ya29.…`): the book only needs fresh unguessable strings. */
export interface TokenShapes {
  code(): string;
  access(): string;
  refresh(): string;
}

/** What the user allowed on the consent page, kept with the code until it is exchanged. */
export interface CodeRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  pkce: PkceChallenge | undefined;
  /** Whether the exchange also issues a refresh token. */
  offline: boolean;
}

export interface PendingCode extends CodeRequest {
  expiresAt: number;
}

/** One consent turned into tokens: its access tokens and refresh token live and die with it. */
export interface Grant {
  readonly clientId: string;
  readonly scope: string;
  /** The refresh token valid now (undefined for a grant without one). */
  refreshToken: string | undefined;
  revoked: boolean;
}

export interface IssuedTokens {
  grant: Grant;
  accessToken: string;
  refreshToken: string | undefined;
  expiresIn: number;
}

export type AccessState = 'valid' | 'expired' | 'revoked' | 'unknown';
export type RefreshFailure = 'unknown' | 'revoked' | 'reused' | 'other_client';

export interface OAuthBookOptions {
  ttlSeconds: number;
  now: () => number;
  shapes: TokenShapes;
  /** Default 600: both providers document codes as valid for about ten minutes. */
  codeTtlSeconds?: number;
}

/** Codes, grants and tokens with their lifetimes: the state an authorization server keeps. */
export class OAuthBook {
  private readonly codes = new Map<string, PendingCode>();
  private readonly access = new Map<string, { grant: Grant; expiresAt: number }>();
  private readonly refresh = new Map<string, Grant>();
  /** Refresh tokens replaced by rotation: presenting one again is the sign of a leaked token. */
  private readonly retired = new Map<string, Grant>();
  private readonly grants: Grant[] = [];

  constructor(private readonly options: OAuthBookOptions) {}

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  issueCode(request: CodeRequest): string {
    const now = this.options.now();
    for (const [code, pending] of this.codes) if (pending.expiresAt <= now) this.codes.delete(code);
    const code = this.options.shapes.code();
    this.codes.set(code, { ...request, expiresAt: now + (this.options.codeTtlSeconds ?? 600) * 1000 });
    return code;
  }

  /** Single use: a code is gone once presented, whatever the outcome; an expired code is as unknown. */
  takeCode(code: string): PendingCode | undefined {
    const pending = this.codes.get(code);
    this.codes.delete(code);
    return pending && pending.expiresAt > this.options.now() ? pending : undefined;
  }

  open(pending: PendingCode): IssuedTokens {
    const grant: Grant = { clientId: pending.clientId, scope: pending.scope, refreshToken: undefined, revoked: false };
    if (pending.offline) grant.refreshToken = this.newRefreshToken(grant);
    this.grants.push(grant);
    return this.issue(grant);
  }

  /** A new access token for a refresh token; with `rotate`, a new refresh token too, and reuse of the old one kills the grant. */
  refreshGrant(token: string, clientId: string, rotate: boolean): IssuedTokens | RefreshFailure {
    const retired = this.retired.get(token);
    if (retired) {
      if (retired.clientId !== clientId) return 'other_client';
      retired.revoked = true;
      return 'reused';
    }
    const grant = this.refresh.get(token);
    if (!grant) return 'unknown';
    if (grant.clientId !== clientId) return 'other_client';
    if (grant.revoked) return 'revoked';
    if (rotate) {
      this.refresh.delete(token);
      this.retired.set(token, grant);
      grant.refreshToken = this.newRefreshToken(grant);
    }
    return this.issue(grant);
  }

  accessState(token: string): AccessState {
    const record = this.access.get(token);
    if (!record) return 'unknown';
    if (record.grant.revoked) return 'revoked';
    return record.expiresAt <= this.options.now() ? 'expired' : 'valid';
  }

  /** Revokes the grant behind a live refresh or access token (either takes the other with it); false when there is none. */
  revoke(token: string): boolean {
    const grant = this.refresh.get(token) ?? (this.accessState(token) === 'valid' ? this.access.get(token)?.grant : undefined);
    if (!grant || grant.revoked) return false;
    grant.revoked = true;
    return true;
  }

  /** The grants of a client still alive, oldest first. */
  liveGrants(clientId: string): Grant[] {
    return this.grants.filter((grant) => grant.clientId === clientId && !grant.revoked);
  }

  expireAccessTokens(): void {
    const now = this.options.now();
    for (const record of this.access.values()) record.expiresAt = Math.min(record.expiresAt, now);
  }

  revokeGrants(): void {
    for (const grant of this.grants) grant.revoked = true;
  }

  private issue(grant: Grant): IssuedTokens {
    const accessToken = this.options.shapes.access();
    this.access.set(accessToken, { grant, expiresAt: this.options.now() + this.options.ttlSeconds * 1000 });
    return { grant, accessToken, refreshToken: grant.refreshToken, expiresIn: this.options.ttlSeconds };
  }

  private newRefreshToken(grant: Grant): string {
    const token = this.options.shapes.refresh();
    this.refresh.set(token, grant);
    return token;
  }
}
