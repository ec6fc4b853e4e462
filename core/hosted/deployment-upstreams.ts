import type { LocalConnectorConfig } from '../runtime/runtime.ts';
import type { Credentials } from '../sdk/index.ts';
import { EgressPolicy } from '../security/egress/egress-policy.ts';

/**
 * Where the hosted server's connector instances call: the operator's base URL of a type
 * (PLUGBOARD_<TYPE>_BASE_URL) is trusted as configured; any other (a connector's default, a
 * declarative definition's `defaultBaseUrl` a tenant wrote) goes through the egress policy.
 */
export class DeploymentUpstreams {
  constructor(
    private readonly baseUrls: Record<string, string | undefined>,
    readonly egress: EgressPolicy = new EgressPolicy(),
  ) {}

  instanceConfig(type: string, credentials: Credentials): LocalConnectorConfig {
    const baseUrl = this.baseUrls[type];
    return baseUrl ? { credentials, base_url: baseUrl } : { credentials, egress: this.egress };
  }
}
