import type { IncomingMessage } from 'node:http';

/** How the upstream wants to be called: each mode the manifests' authenticators speak. */
export type UpstreamAuth =
  | { kind: 'none' }
  | { kind: 'api_key'; header: string; key: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; username: string; password: string }
  /** POST /api/session {username, password} → {token}; calls then carry it in `header` (after `scheme` and a space, when given). */
  | { kind: 'session'; username: string; password: string; header: string; scheme?: string }
  /** POST /oauth/token (refresh_token grant) → {access_token, expires_in}; calls carry `Bearer <access_token>`. */
  | { kind: 'oauth'; clientId: string; clientSecret: string; refreshToken: string; tokenTtlSeconds: number };

/** The tokens the upstream issued (session and OAuth), with when each expires (ms). */
export class IssuedTokens {
  private readonly live = new Map<string, number>();
  private issued = 0;

  issue(ttlMs: number, now: number): string {
    this.issued++;
    const token = `issued-${this.issued}-${Math.random().toString(36).slice(2, 10)}`;
    this.live.set(token, now + ttlMs);
    return token;
  }

  valid(token: string, now: number): boolean {
    const until = this.live.get(token);
    return until !== undefined && until > now;
  }

  get count(): number {
    return this.issued;
  }
}

/** Whether a request carries what the auth mode wants. */
export function authorized(req: IncomingMessage, auth: UpstreamAuth, tokens: IssuedTokens, now: number): boolean {
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  switch (auth.kind) {
    case 'none':
      return true;
    case 'api_key':
      return header(auth.header) === auth.key;
    case 'bearer':
      return header('authorization') === `Bearer ${auth.token}`;
    case 'basic':
      return header('authorization') === `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    case 'session': {
      const value = header(auth.header);
      const token = auth.scheme === undefined ? value : value?.startsWith(`${auth.scheme} `) ? value.slice(auth.scheme.length + 1) : undefined;
      return token !== undefined && tokens.valid(token, now);
    }
    case 'oauth': {
      const match = /^Bearer (\S+)$/.exec(header('authorization') ?? '');
      return match !== null && tokens.valid(match[1]!, now);
    }
  }
}
