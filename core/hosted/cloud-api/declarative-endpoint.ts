import type { Endpoint } from './actor-kind.ts';
import type { Manifest } from './declarative-manifest.ts';

/**
 * Where a declarative source's credentials go: its manifest's base URL, and the auth rules that say
 * how they are sent. A definition update that changes either keeps its sources' secrets from the new
 * endpoint until they are given again.
 */
export function declarativeEndpoint(manifest: Manifest): Endpoint {
  return { 'manifest.defaultBaseUrl': manifest.defaultBaseUrl ?? null, 'manifest.auth': manifest.auth ?? null };
}
