import type { LocalConnectorConfig } from '../runtime/runtime.ts';
import type { Credentials } from '../sdk/index.ts';
import { EgressPolicy, endpointOfUrl } from '../security/egress/egress-policy.ts';

/**
 * Where the hosted server's connector instances call: the operator's base URL of a type
 * (PLUGBOARD_<TYPE>_BASE_URL) is trusted as configured, its host and port opened for that type
 * alone (a redirect elsewhere is judged as any connection); any other base URL (a connector's
 * default, a declarative definition's `defaultBaseUrl` a tenant wrote) goes through the policy as is.
 */
export class DeploymentUpstreams {
  private readonly opened = new Map<string, EgressPolicy>();

  constructor(
    private readonly baseUrls: Record<string, string | undefined>,
    readonly egress: EgressPolicy = new EgressPolicy(),
  ) {}

  instanceConfig(type: string, credentials: Credentials): LocalConnectorConfig {
    const baseUrl = this.baseUrls[type];
    return baseUrl ? { credentials, base_url: baseUrl, egress: this.openedFor(type, baseUrl) } : { credentials, egress: this.egress };
  }

  /** One policy per configured type, so instances of a type share their keep-alive sockets. */
  private openedFor(type: string, baseUrl: string): EgressPolicy {
    let policy = this.opened.get(type);
    if (!policy) {
      const { host, port } = endpointOfUrl(baseUrl);
      policy = this.egress.opening(`${host}:${port}`);
      this.opened.set(type, policy);
    }
    return policy;
  }
}
