/** One OAuth client's credentials, as the token endpoints receive them. */
export interface OAuthClientPair {
  client_id: string;
  client_secret: string;
}

/** `"<id>:<secret>"` (the sandboxes' `oauthClient` option) as a pair; undefined when not set. */
export function parseOAuthClient(value: unknown, who: string): OAuthClientPair | undefined {
  if (value === undefined) return undefined;
  const match = typeof value === 'string' ? /^([^:]+):(.+)$/.exec(value) : null;
  if (!match) throw new TypeError(`${who}: oauthClient must be "<client id>:<client secret>"`);
  return { client_id: match[1]!, client_secret: match[2]! };
}

export type ClientCheck = 'ok' | 'unknown_client' | 'bad_secret';

/**
 * The clients a sandbox accepts: only the configured pair when there is one (as a real provider knows
 * only registered apps), else any id with any secret. Accepted pairs are recorded for tests to inspect.
 */
export class OAuthClients {
  private readonly used: OAuthClientPair[] = [];

  constructor(private readonly registered: OAuthClientPair | undefined) {}

  /** Whether the authorize endpoint knows this client id. */
  knows(clientId: string): boolean {
    return this.registered === undefined || this.registered.client_id === clientId;
  }

  /** The token endpoint's check of a client id and secret; an accepted pair is recorded once. */
  check(clientId: string, clientSecret: string): ClientCheck {
    if (!this.knows(clientId)) return 'unknown_client';
    if (this.registered !== undefined && this.registered.client_secret !== clientSecret) return 'bad_secret';
    if (!this.used.some((pair) => pair.client_id === clientId && pair.client_secret === clientSecret)) {
      this.used.push({ client_id: clientId, client_secret: clientSecret });
    }
    return 'ok';
  }

  /** Distinct accepted pairs, in the order first used. */
  list(): OAuthClientPair[] {
    return this.used.map((pair) => ({ ...pair }));
  }
}
