import got, { type Got, type Response } from 'got';
import { decodeJwt } from 'jose';
import { errorFromWire } from './wire-errors.ts';

export interface HostedConnectorConfig {
  external_user_id: string;
  client_id: string;
  client_secret: string;
  /** Root of the Plugboard server, e.g. http://127.0.0.1:8080. */
  server_url: string;
  /** Workspace holding the external user's connector; default the external user id (one workspace per end user). */
  workspace_name?: string;
}

/** Tokens are renewed this long before they expire, so a request never leaves with one about to lapse. */
const EXPIRY_MARGIN_MS = 60_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * The credentials side of the hosted variant: an operator token from the application credentials, a
 * scoped token for the external user's workspace, both cached until shortly before they expire.
 */
export class HostedSession {
  readonly http: Got;
  private operator: CachedToken | null = null;
  private scoped: CachedToken | null = null;

  constructor(readonly config: HostedConnectorConfig) {
    this.http = got.extend({
      prefixUrl: config.server_url.replace(/\/+$/, ''),
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: 120_000 },
      // Plugboard's server never compresses its answers, so there is nothing to decompress.
      decompress: false,
    });
  }

  get workspaceName(): string {
    return this.config.workspace_name ?? this.config.external_user_id;
  }

  /** A valid scoped token; `fresh` drops the cached ones first (after a 401). */
  async scopedToken(fresh = false): Promise<string> {
    if (fresh) this.operator = this.scoped = null;
    if (this.scoped && this.scoped.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return this.scoped.value;
    const operator = await this.operatorToken();
    const response = await this.http.post('api/v1/embedded/scoped-token', { headers: { authorization: `Bearer ${operator}` }, json: { workspace_name: this.workspaceName } });
    const { token } = expectOk(response) as { token: string };
    this.scoped = { value: token, expiresAt: (decodeJwt(token).exp ?? 0) * 1000 };
    return token;
  }

  private async operatorToken(): Promise<string> {
    if (this.operator && this.operator.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return this.operator.value;
    const response = await this.http.post('api/v1/account/applications/token', { json: { client_id: this.config.client_id, client_secret: this.config.client_secret } });
    const body = expectOk(response) as { access_token: string; expires_in: number };
    this.operator = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }
}

/** The parsed JSON of a 2xx answer, or the typed error the server answered with. */
export function expectOk(response: Response<string>): unknown {
  const body = parse(response.body);
  if (response.statusCode >= 400) throw errorFromWire(response.statusCode, body, response.headers['retry-after']);
  return body;
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
