import { BadRequestError, PlugboardError } from '../../errors.ts';
import { exchangeCode } from '../../oauth/token-endpoint.ts';
import type { OAuthCredentials } from '../../sdk/index.ts';
import type { DeploymentUpstreams } from '../deployment-upstreams.ts';
import { consentUrl, pkcePair } from './consent-url.ts';
import type { FlowBinding } from './flow-binding.ts';
import type { OAuthApps } from './oauth-apps.ts';
import type { OAuthSecrets } from './oauth-secrets.ts';
import type { OAuthSourceType, OAuthSourceTypes } from './oauth-source-types.ts';
import type { OAuthStates, PendingConsent } from './oauth-states.ts';

/** One consent to ask for. */
export interface ConsentToAsk {
  binding: FlowBinding;
  type: OAuthSourceType;
  /** Plugboard's own callback (`<public URL>/v1/oauth/callback`): the provider's redirect_uri. */
  callbackUrl: string;
  /** Where the browser goes after the callback, with `secret_id` or `error`. */
  redirectUrl: string;
  /** Scopes in place of the connector's declared ones. */
  scopes?: string[];
}

/** What the callback was given: the provider's redirect (RFC 6749 §4.1.2). */
export interface CallbackParams {
  state?: string;
  code?: string;
  error?: string;
}

/** A provider's error code as it may travel on (RFC 6749's are short ASCII words); anything else is generic. */
const PROVIDER_ERROR = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The authorization-code flow, for the public API and the widget alike: the consent URL (with the
 * app's client id, a single-use state and, where the provider takes it, PKCE), and the callback that
 * takes the state back once, exchanges the code at the deployment's token URL (through the egress
 * policy) and keeps what it granted as an OAuth secret for the source to take.
 */
export class OAuthFlows {
  constructor(
    private readonly apps: OAuthApps,
    private readonly states: OAuthStates,
    private readonly secrets: OAuthSecrets,
    private readonly types: OAuthSourceTypes,
    private readonly upstreams: DeploymentUpstreams,
  ) {}

  /** The consent URL and its state; 400 `oauth_app_not_registered` when neither the workspace nor its organization registered an app for the type. */
  async begin(ask: ConsentToAsk): Promise<{ consentUrl: string; state: string }> {
    const { binding, type } = ask;
    const client = await this.apps.find(binding.organizationId, binding.workspaceId, type);
    if (!client) {
      throw new BadRequestError(
        `oauth_app_not_registered: no OAuth app is registered for ${type.name} in this workspace or its organization; ` +
          `register one first (PUT /v1/workspaces/{workspaceId}/oauthCredentials or /v1/organizations/{organizationId}/oauthCredentials)`,
        'oauth_app_not_registered',
      );
    }
    const pkce = type.settings.pkce ? pkcePair() : undefined;
    const state = await this.states.open({
      ...binding,
      callbackUrl: ask.callbackUrl,
      redirectUrl: ask.redirectUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      ...(pkce ? { codeVerifier: pkce.verifier } : {}),
    });
    const { authorizeUrl } = this.upstreams.oauthEndpoints(type.connectorType, type.settings);
    const url = consentUrl(type.settings, {
      authorizeUrl,
      clientId: client.clientId,
      callbackUrl: ask.callbackUrl,
      state,
      ...(ask.scopes ? { scopes: ask.scopes } : {}),
      ...(pkce ? { codeChallenge: pkce.challenge } : {}),
    });
    return { consentUrl: url, state };
  }

  /**
   * Where the callback sends the browser: the flow's redirect URL with `secret_id`, or `error` (the
   * provider's code when the user refused; `oauth_exchange_failed` or `egress_refused` when the code
   * could not be exchanged; the provider's description and any secret never travel). The embedded
   * flow's redirect also carries the state, for the widget to match it. A state that is unknown,
   * taken or expired redirects nowhere (the redirect URL is not known then): a 400 `invalid_oauth_state`.
   */
  async complete(params: CallbackParams): Promise<string> {
    const consent = params.state ? await this.states.take(params.state) : undefined;
    if (!consent) {
      throw new BadRequestError(
        'invalid_oauth_state: this sign-in link is unknown, was already used or has expired; start connecting the account again',
        'invalid_oauth_state',
      );
    }
    const back = (outcome: [string, string]) => withQuery(consent.redirectUrl, consent.flow === 'embedded' ? [['state', params.state!], outcome] : [outcome]);
    if (params.error !== undefined) return back(['error', PROVIDER_ERROR.test(params.error) ? params.error : 'oauth_error']);
    if (!params.code) return back(['error', 'invalid_request']);
    let credentials: OAuthCredentials;
    try {
      credentials = await this.exchange(consent, params.code);
    } catch (error) {
      if (!(error instanceof PlugboardError)) throw error;
      return back(['error', error.error_code === 'egress_refused' ? 'egress_refused' : 'oauth_exchange_failed']);
    }
    return back(['secret_id', await this.secrets.keep(consent, credentials)]);
  }

  /** The code for tokens at the type's token URL as this deployment runs it, under its egress policy. */
  private async exchange(consent: PendingConsent, code: string): Promise<OAuthCredentials> {
    const type = await this.types.resolve({ organizationId: consent.organizationId, workspaceId: consent.workspaceId }, consent.sourceType, ['sourceType']);
    const { tokenUrl, egress } = this.upstreams.oauthEndpoints(type.connectorType, type.settings);
    const endpoint = {
      url: tokenUrl,
      clientId: consent.clientId,
      clientSecret: consent.clientSecret,
      revokedCodes: type.settings.revokedCodes ?? ['invalid_grant'],
      egress,
    };
    const granted = await exchangeCode(endpoint, {
      code,
      redirectUri: consent.callbackUrl,
      ...(consent.codeVerifier ? { codeVerifier: consent.codeVerifier } : {}),
    });
    return {
      access_token: granted.accessToken,
      ...(granted.refreshToken === undefined ? {} : { refresh_token: granted.refreshToken }),
      ...(granted.expiresAt === undefined ? {} : { expires_at: new Date(granted.expiresAt).toISOString() }),
      client_id: consent.clientId,
      client_secret: consent.clientSecret,
      // No token_url: refreshes go where the deployment runs the type's flow at the time, as the exchange did.
    };
  }
}

/** `url` with `params` appended to its query, any query it has kept. */
export function withQuery(url: string, params: Array<[string, string]>): string {
  const target = new URL(url);
  for (const [name, value] of params) target.searchParams.append(name, value);
  return target.href;
}
