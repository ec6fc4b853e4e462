import type { Endpoint } from './actor-kind.ts';
import { isObject, maskSecrets } from './configuration-secrets.ts';
import type { Manifest } from './declarative-manifest.ts';

/** Fields of a manifest's requesters that say where requests, and the credentials with them, go. */
const WHERE = new Set(['url_base', 'url', 'authenticator']);
/** A requester's `path` moves requests elsewhere only when it is a URL of its own or reads the configuration. */
const MOVING_PATH = /:\/\/|config/;
/** The configuration fields a template reads: `config['x']`, `config["x"]`, `config.get('x')`, `config.x`. */
const CONFIG_FIELD = /config\s*(?:\[\s*['"]([^'"]+)['"]\s*\]|\.get\(\s*['"]([^'"]+)['"]|\.(?!get\b)([A-Za-z_]\w*))/g;

/**
 * Where an Airbyte manifest's requests go, as far as the manifest says: every `url_base`, `url` and
 * `authenticator` (token endpoints are in it), and every `path` that is a URL or reads the
 * configuration, wherever written. A definition update that changes any of them keeps its sources'
 * secrets from the new endpoint until they are given again.
 */
export function airbyteManifestEndpoint(manifest: Manifest): Endpoint {
  return { 'manifest.requests': endpointValues(manifest) };
}

/**
 * A source's endpoint: the manifest's, and the configuration fields its endpoint templates read
 * (`base_url`, a subdomain, a token URL), so a change of them keeps the stored secrets from it. A
 * secret field read there is left out (it is never stored in the clear, and a change gives it anyway);
 * secrets inside an object read there are masked.
 */
export function airbyteSourceEndpoint(manifest: Manifest, secrets: ReadonlySet<string>): (configuration: Record<string, unknown>) => Endpoint {
  const values = endpointValues(manifest);
  const fields = [...new Set(values.flatMap((value) => [...value.matchAll(CONFIG_FIELD)].map((match) => match[1] ?? match[2] ?? match[3]!)))]
    .filter((field) => !secrets.has(field))
    .sort();
  return (configuration) => ({
    'manifest.requests': values,
    ...Object.fromEntries(fields.map((field) => [`configuration.${field}`, maskSecrets(configuration[field] ?? null, secrets)])),
  });
}

/** The endpoint fields' values (as JSON), sorted, each once. */
function endpointValues(manifest: Manifest): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 64) return;
    if (!isObject(node) && !Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (WHERE.has(key) || (key === 'path' && typeof value === 'string' && MOVING_PATH.test(value))) found.add(JSON.stringify(value));
      walk(value, depth + 1);
    }
  };
  walk(manifest, 0);
  return [...found].sort();
}
