import { ConfigurationError } from '../configuration-error.ts';
import { ConnectorLoadError } from '../errors.ts';
import { connectorVersion } from '../plugins/connector-version.ts';
import { Runtime } from '../runtime/runtime.ts';
import type { OAuthUrlSettings } from './deployment-upstreams.ts';

/** Upstream API root per connector type; asked once the connectors are loaded, since plugins bring types of their own. */
export type BaseUrlsForTypes = (types: readonly string[]) => Record<string, string | undefined>;
/** Per connector type, the operator's OAuth endpoints (PLUGBOARD_<TYPE>_AUTHORIZE_URL, _TOKEN_URL). */
export type OAuthUrlsForTypes = (types: readonly string[]) => Record<string, OAuthUrlSettings | undefined>;

/** A connector type the hosted runtime serves, as the start-up log lists it. */
export interface LoadedConnector {
  type: string;
  /** Its declared version, its package's, or "unversioned" (see connectorVersion). */
  version: string;
  /** The API root it calls: the deployment's setting when there is one, else the connector's default. */
  upstream: string;
  /** Whether `upstream` is the deployment's setting rather than the connector's default. */
  configured: boolean;
  /** An Airbyte manifest: each connector's configuration names its API root (`upstream` says so). */
  perConfiguration: boolean;
}

interface HostedConnectorTypes {
  runtime: Runtime;
  baseUrls: Record<string, string | undefined>;
  loaded: LoadedConnector[];
}

/**
 * Loads the built-in connectors (`builtins`, which the server names: core knows no connector) and the
 * deployment's plugins (PLUGBOARD_CONNECTORS), then resolves the upstream base URL of every type
 * loaded. A plugin that cannot be loaded is the operator's to fix, so it refuses the start
 * (ConfigurationError) naming the plugin and what was tried.
 */
export async function loadHostedConnectors(
  builtins: readonly string[],
  plugins: readonly string[],
  baseUrlsFor: BaseUrlsForTypes,
): Promise<HostedConnectorTypes> {
  const runtime = new Runtime();
  const versions = new Map<string, string>();
  const load = async (specifier: string) => {
    const type = await runtime.loadConnector(specifier);
    versions.set(type, connectorVersion(specifier, runtime.plugin(type).definition));
  };
  for (const specifier of builtins) await load(specifier);
  for (const specifier of plugins) {
    await load(specifier).catch((error: unknown) => {
      // ConnectorLoadError lists its problems on lines of their own: the refusal is one line.
      const problems = error instanceof ConnectorLoadError ? error.problems : [(error as Error).message];
      throw new ConfigurationError(`PLUGBOARD_CONNECTORS: cannot load connector "${specifier}": ${problems.join('; ')}`);
    });
  }
  const types = runtime.connectorTypes();
  const baseUrls = baseUrlsFor(types);
  const loaded = types.map((type) => ({
    type,
    version: versions.get(type)!,
    // An Airbyte manifest's API root is whatever each connector's configuration says.
    upstream: runtime.plugin(type).manifest ? 'the API its configuration names' : (baseUrls[type] ?? runtime.plugin(type).definition.defaultBaseUrl),
    perConfiguration: runtime.plugin(type).manifest !== undefined,
    configured: baseUrls[type] !== undefined,
  }));
  return { runtime, baseUrls, loaded };
}
