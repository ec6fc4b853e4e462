import { OAuthBook, type TokenShapes } from './book.ts';
import { OAuthClients, parseOAuthClient } from './clients.ts';
import { OAuthCounters, type OAuthStats } from './stats.ts';

/** The OAuth settings both sandboxes take (as `start` options and `--set key=value`). */
export interface OAuthSandboxOptions {
  /** `"<client id>:<client secret>"`: only that client is accepted. Default: any id with any secret (each pair recorded). */
  oauthClient?: string;
  /** Lifetime of issued access tokens, answered as `expires_in`. */
  tokenTtlSeconds?: number;
}

export interface AuthoritySetup {
  /** Names the sandbox in option errors. */
  who: string;
  defaultTtlSeconds: number;
  shapes: TokenShapes;
  now: () => number;
}

/** One sandbox's authorization server: its clients, its book of grants, and the counters tests read. */
export class OAuthAuthority {
  readonly clients: OAuthClients;
  readonly book: OAuthBook;
  private readonly counters = new OAuthCounters();

  constructor(options: OAuthSandboxOptions, setup: AuthoritySetup) {
    const ttl = options.tokenTtlSeconds ?? setup.defaultTtlSeconds;
    if (!Number.isSafeInteger(ttl) || ttl < 1) throw new RangeError(`${setup.who}: tokenTtlSeconds must be a positive integer`);
    this.clients = new OAuthClients(parseOAuthClient(options.oauthClient, setup.who));
    this.book = new OAuthBook({ ttlSeconds: ttl, now: setup.now, shapes: setup.shapes });
  }

  granted(kind: 'authorization_code' | 'refresh_token'): void {
    this.counters.granted(kind);
  }

  /** Counts a refusal and hands its code back, so a caller can count and answer in one expression. */
  refuse<Code extends string>(code: Code): Code {
    this.counters.refused(code);
    return code;
  }

  stats(): OAuthStats {
    return this.counters.snapshot(this.clients.list());
  }
}
