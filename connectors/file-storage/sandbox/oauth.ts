import { randomBytes } from 'node:crypto';
import { type AuthorizeProvider, type AuthorizeRefusal, OAuthAuthority, isRedirectUri, pkceMethod, plainError } from '../../../testing/oauth/index.ts';
import type { DriveStore } from './store.ts';
import type { DriveSandboxOptions } from './types.ts';

/**
 * Google's OAuth 2.0 for web server apps, authorization side: the consent page at /o/oauth2/v2/auth
 * (accounts.google.com), its checks, and the codes it hands out. The token side is oauth-endpoints.ts.
 */

export const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
export const TOKEN_PATH = '/token';
export const REVOKE_PATH = '/revoke';
/** Google's access tokens live an hour, answered as 3599 seconds. */
const DEFAULT_TTL_SECONDS = 3599;

const SHAPES = {
  code: () => `4/0A${randomBytes(40).toString('base64url')}`,
  access: () => `ya29.a0${randomBytes(60).toString('base64url')}`,
  refresh: () => `1//0${randomBytes(48).toString('base64url')}`,
};

export class DriveOAuth {
  readonly authority: OAuthAuthority;
  readonly authorize: AuthorizeProvider;

  constructor(
    private readonly store: DriveStore,
    options: DriveSandboxOptions,
  ) {
    this.authority = new OAuthAuthority(options, {
      who: 'DriveSandbox',
      defaultTtlSeconds: DEFAULT_TTL_SECONDS,
      shapes: SHAPES,
      now: options.clock ?? Date.now,
    });
    this.authorize = {
      path: AUTHORIZE_PATH,
      refuse: (params) => this.refuse(params),
      consent: (params) => {
        const app = params.get('client_id')!;
        return {
          title: 'Sign in - Google Accounts',
          heading: `${app} wants to access your Google Account`,
          account: this.store.me.emailAddress,
          scopes: [{ label: `This will allow ${app} to:`, scopes: scopeList(params.get('scope')) }],
          denyLabel: 'Cancel',
        };
      },
      allow: (params) => this.allow(params),
    };
  }

  /** Whether an API call's bearer token is a live OAuth-issued one. */
  accepts(token: string): boolean {
    return this.authority.book.accessState(token) === 'valid';
  }

  private refuse(params: URLSearchParams): AuthorizeRefusal | undefined {
    const invalid = (detail: string) => ({ status: 400, code: 'invalid_request', page: plainError(400, 'invalid_request', detail) });
    const clientId = params.get('client_id');
    if (!clientId) return invalid('Missing required parameter: client_id');
    if (!this.authority.clients.knows(clientId))
      return { status: 401, code: 'invalid_client', page: plainError(401, 'invalid_client', 'The OAuth client was not found.') };
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri) return invalid('Missing required parameter: redirect_uri');
    if (!isRedirectUri(redirectUri)) return invalid(`Invalid parameter value for redirect_uri: ${redirectUri}`);
    const responseType = params.get('response_type');
    if (!responseType) return invalid('Missing required parameter: response_type');
    // Only the web server flow is emulated: the implicit flow (token) and hybrids are refused.
    if (responseType !== 'code') return invalid(`Invalid response_type: ${responseType}`);
    if (!params.get('scope')) return invalid('Missing required parameter: scope');
    const accessType = params.get('access_type');
    if (accessType !== null && accessType !== 'online' && accessType !== 'offline') return invalid(`Invalid access_type: ${accessType}`);
    if (pkceMethod(params.get('code_challenge_method')) === undefined) return invalid('Invalid code_challenge_method value.');
    if (params.has('code_challenge_method') && !params.get('code_challenge')) return invalid('Missing required parameter: code_challenge');
    return undefined;
  }

  private allow(params: URLSearchParams): Array<[string, string]> {
    const clientId = params.get('client_id')!;
    const live = this.authority.book.liveGrants(clientId);
    const scopes = new Set(scopeList(params.get('scope')));
    // include_granted_scopes: the new grant also covers what the user already granted this client.
    if (params.get('include_granted_scopes') === 'true') for (const grant of live) for (const scope of scopeList(grant.scope)) scopes.add(scope);
    // Google sends a refresh token on the first offline consent only, unless prompt=consent asks again.
    const prompted = scopeList(params.get('prompt')).includes('consent');
    const offline = params.get('access_type') === 'offline' && (prompted || !live.some((grant) => grant.refreshToken !== undefined));
    const challenge = params.get('code_challenge');
    const scope = [...scopes].join(' ');
    const code = this.authority.book.issueCode({
      clientId,
      redirectUri: params.get('redirect_uri')!,
      scope,
      pkce: challenge ? { challenge, method: pkceMethod(params.get('code_challenge_method'))! } : undefined,
      offline,
    });
    const state = params.get('state');
    return [...(state === null ? [] : [['state', state] as [string, string]]), ['code', code], ['scope', scope]];
  }
}

/** Google separates scopes (and prompt values) with spaces. */
export function scopeList(value: string | null): string[] {
  return (value ?? '').split(' ').filter((scope) => scope !== '');
}
