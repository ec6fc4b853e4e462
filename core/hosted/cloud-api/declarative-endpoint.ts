import type { Endpoint } from './actor-kind.ts';
import { airbyteManifestEndpoint } from './airbyte-endpoint.ts';
import { isAirbyteManifest } from './declarative-manifest.ts';
import type { Manifest } from './declarative-manifest.ts';

/**
 * Where a declarative source's credentials go: its manifest's base URL, and the auth rules that say
 * how they are sent (an Airbyte manifest: its requesters' URLs and authenticators). A definition update
 * that changes either keeps its sources' secrets from the new endpoint until they are given again.
 */
export function declarativeEndpoint(manifest: Manifest): Endpoint {
  if (isAirbyteManifest(manifest)) return airbyteManifestEndpoint(manifest);
  return { 'manifest.defaultBaseUrl': manifest.defaultBaseUrl ?? null, 'manifest.auth': manifest.auth ?? null };
}
