import { typeVariable } from './type-variables.ts';
import type { LocalConnectorConfig } from '../runtime/runtime.ts';
import type { Credentials, OAuth2Settings } from '../sdk/index.ts';
import { EgressPolicy, endpointOfUrl } from '../security/egress/egress-policy.ts';

/** An operator's OAuth endpoints of a type (PLUGBOARD_<TYPE>_AUTHORIZE_URL, _TOKEN_URL), in place of the declared ones. */
export interface OAuthUrlSettings {
  authorizeUrl?: string;
  tokenUrl?: string;
}

/** Where a type's OAuth flow runs in this deployment, and the policy its token requests obey. */
export interface DeploymentOAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  egress: EgressPolicy;
}

/**
 * Where the hosted server's connector instances call: the operator's base URL of a type
 * (PLUGBOARD_<TYPE>_BASE_URL) and its token URL (PLUGBOARD_<TYPE>_TOKEN_URL) are trusted as
 * configured, their hosts and ports opened for that type alone (a redirect elsewhere is judged as any
 * connection); any other URL (a connector's default, a declarative definition's `defaultBaseUrl`, a
 * token URL in a tenant's credentials) goes through the policy as is.
 */
export class DeploymentUpstreams {
  private readonly opened = new Map<string, EgressPolicy>();

  constructor(
    private readonly baseUrls: Record<string, string | undefined>,
    readonly egress: EgressPolicy = new EgressPolicy(),
    private readonly oauthUrls: Record<string, OAuthUrlSettings | undefined> = {},
  ) {}

  instanceConfig(type: string, credentials: Credentials): LocalConnectorConfig {
    const baseUrl = this.baseUrls[type];
    const tokenUrl = this.oauthUrls[type]?.tokenUrl;
    // A refresh grant without a token URL of its own refreshes where this deployment runs the type's flow.
    const withTokenUrl =
      tokenUrl !== undefined && 'refresh_token' in credentials && credentials.token_url === undefined ? { ...credentials, token_url: tokenUrl } : credentials;
    return {
      credentials: withTokenUrl,
      ...(baseUrl ? { base_url: baseUrl } : {}),
      // A loaded type's API root is the deployment's to set; a declarative definition's is its manifest's.
      ...(type in this.baseUrls ? { base_url_setting: typeVariable(type, 'BASE_URL') } : {}),
      egress: this.policyFor(type),
      ...(this.isTenantTokenUrl(type, credentials) ? { tokenEgress: this.egress } : {}),
    };
  }

  /** A token URL given in credentials, judged when they are stored: refused then with a 400, not at the first refresh. */
  async checkTokenUrl(type: string, credentials: Credentials, field: string): Promise<void> {
    if (!('token_url' in credentials) || typeof credentials.token_url !== 'string') return;
    await (this.isTenantTokenUrl(type, credentials) ? this.egress : this.policyFor(type)).checkUrl(credentials.token_url, field);
  }

  /** A token URL in credentials that is not the operator's: judged by the policy as is, nothing opened for it. */
  private isTenantTokenUrl(type: string, credentials: Credentials): boolean {
    return 'token_url' in credentials && credentials.token_url !== undefined && credentials.token_url !== this.oauthUrls[type]?.tokenUrl;
  }

  /** The type's OAuth endpoints: the operator's where set, else the connector's declared ones. */
  oauthEndpoints(type: string, declared: OAuth2Settings): DeploymentOAuthEndpoints {
    const configured = this.oauthUrls[type];
    return {
      authorizeUrl: configured?.authorizeUrl ?? declared.authorizeUrl,
      tokenUrl: configured?.tokenUrl ?? declared.tokenUrl,
      egress: this.policyFor(type),
    };
  }

  /** One policy per type, so its instances share their keep-alive sockets: the operator's endpoints opened, nothing else. */
  private policyFor(type: string): EgressPolicy {
    let policy = this.opened.get(type);
    if (!policy) {
      const trusted = [this.baseUrls[type], this.oauthUrls[type]?.tokenUrl].filter((url): url is string => url !== undefined);
      const endpoints = trusted.map((url) => endpointOfUrl(url)).map(({ host, port }) => `${host}:${port}`);
      policy = endpoints.length === 0 ? this.egress : this.egress.opening(endpoints.join(','));
      this.opened.set(type, policy);
    }
    return policy;
  }
}
