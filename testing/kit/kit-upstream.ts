import type { LocalConnectorConfig } from '../../core/index.ts';

/** The upstream of a connector with credentials: called at `baseUrl` with `credentials`. */
export interface CredentialedUpstream {
  /** API root, as `base_url` of a connector instance. */
  baseUrl: string;
  credentials: LocalConnectorConfig['credentials'];
  close(): Promise<void>;
}

/** The upstream of a configured connector (an Airbyte manifest): its configuration says where to call and with what key. */
export interface ConfiguredUpstream {
  /** The configuration, as the connector's spec describes it, pointing at the upstream. */
  config: Record<string, unknown>;
  close(): Promise<void>;
}

/** An upstream the kit runs the connector's actions against: the connector's sandbox, started for the kit. */
export type KitUpstream = CredentialedUpstream | ConfiguredUpstream;

/** How an instance of the connector is made to call the upstream. */
export function instanceConfigOf(upstream: KitUpstream): LocalConnectorConfig {
  return 'config' in upstream ? { config: upstream.config } : { credentials: upstream.credentials, base_url: upstream.baseUrl };
}
