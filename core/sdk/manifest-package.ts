/**
 * A connector package whose connector is an Airbyte declarative manifest: its module exports
 * `airbyteManifest(yamlText, {type})` as default, and the runtime interprets the manifest.
 */
export interface ManifestPackage {
  kind: 'airbyte-declarative-manifest';
  /** The connector type the manifest runs as (a lowercase identifier). */
  type: string;
  /** The manifest: YAML or JSON text, or the parsed object. */
  manifest: string | Record<string, unknown>;
}

export function airbyteManifest(manifest: string | Record<string, unknown>, options: { type: string }): ManifestPackage {
  return { kind: 'airbyte-declarative-manifest', type: options.type, manifest };
}

export function isManifestPackage(value: unknown): value is ManifestPackage {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'airbyte-declarative-manifest';
}
