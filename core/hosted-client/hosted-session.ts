import got, { type Got, type Response } from 'got';
import { decodeJwt } from 'jose';
import { AuthenticationError, NotFoundError } from '../errors.ts';
import { SharedValue, type Fetched } from './shared-value.ts';
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

/** The bound on a call to the server, answer included. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** Tokens are renewed this long before they expire, so a request never leaves with one about to lapse. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * The credentials side of the hosted variant: an operator token from the application credentials, a
 * scoped token for the external user's workspace, both cached until shortly before they expire. Each is
 * requested once however many calls need it at the same time (an operator token costs the server a
 * scrypt check).
 */
export class HostedSession {
  readonly http: Got;
  private readonly operator = new SharedValue<string>();
  private readonly scoped = new SharedValue<string>();

  constructor(readonly config: HostedConnectorConfig) {
    this.http = got.extend({
      prefixUrl: config.server_url.replace(/\/+$/, ''),
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: REQUEST_TIMEOUT_MS },
      // Plugboard's server never compresses its answers, so there is nothing to decompress.
      decompress: false,
    });
  }

  get workspaceName(): string {
    return this.config.workspace_name ?? this.config.external_user_id;
  }

  /** A valid scoped token, shared by concurrent callers. */
  scopedToken(): Promise<string> {
    return this.scoped.get(() => this.requestScopedToken());
  }

  /** Forgets a scoped token the server answered 401 to (a restart or a key rotation), so the next call gets a new one. */
  discardScopedToken(token: string): void {
    this.scoped.discard(token);
  }

  /** The operator token is kept only for this; a cached one the server refuses is replaced once. */
  private async requestScopedToken(): Promise<Fetched<string>> {
    const operator = await this.operatorToken();
    try {
      return await this.scopedTokenWith(operator);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      this.operator.discard(operator);
      return this.scopedTokenWith(await this.operatorToken());
    }
  }

  /**
   * A scoped token creates its workspace when there is none. The default one (named after the
   * external user) is only looked for: a user without it has no connector, and a mistyped id must
   * not leave a workspace behind.
   */
  private async scopedTokenWith(operator: string): Promise<Fetched<string>> {
    if (this.config.workspace_name === undefined && !(await this.workspaceExists(operator))) {
      throw new NotFoundError(
        `No workspace is named after external user "${this.config.external_user_id}", so it has no connector; give workspace_name when its connector is in another workspace`,
        'connector_not_found',
      );
    }
    return this.postScopedToken(operator);
  }

  /** Whether the organization has a workspace of this session's name (the public API lists them a page at a time). */
  private async workspaceExists(operator: string): Promise<boolean> {
    const limit = 100;
    for (let offset = 0; ; offset += limit) {
      const response = await this.http.get('v1/workspaces', { headers: { authorization: `Bearer ${operator}` }, searchParams: { limit, offset } });
      const { data } = expectOk(response) as { data: Array<{ name: string }> };
      if (data.some((workspace) => workspace.name === this.workspaceName)) return true;
      if (data.length < limit) return false;
    }
  }

  private async postScopedToken(operator: string): Promise<Fetched<string>> {
    const response = await this.http.post('api/v1/embedded/scoped-token', {
      headers: { authorization: `Bearer ${operator}` },
      json: { workspace_name: this.workspaceName },
    });
    const { token } = expectOk(response) as { token: string };
    return { value: token, validUntil: (decodeJwt(token).exp ?? 0) * 1000 - EXPIRY_MARGIN_MS };
  }

  private operatorToken(): Promise<string> {
    return this.operator.get(async () => {
      const response = await this.http.post('api/v1/account/applications/token', {
        json: { client_id: this.config.client_id, client_secret: this.config.client_secret },
      });
      const body = expectOk(response) as { access_token: string; expires_in: number };
      return { value: body.access_token, validUntil: Date.now() + body.expires_in * 1000 - EXPIRY_MARGIN_MS };
    });
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
