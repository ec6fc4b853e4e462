import { checkComponents } from './check-components.ts';
import type { JsonObject } from './json-values.ts';
import { ManifestLoadError, type ManifestProblem, problemAt } from './manifest-load-error.ts';
import { versionProblem } from './manifest-version.ts';
import type { DeclarativeSource } from './model.ts';
import { parseManifest } from './parse-manifest.ts';
import { propagateTypesAndParameters } from './propagate-parameters.ts';
import { resolveReferences } from './resolve-references.ts';

export interface LoadManifestOptions {
  /** Names the manifest in errors (a file name, a connector name); default `manifest`. */
  name?: string;
}

/** A manifest Plugboard can run, in the model's shape. */
export interface LoadedManifest {
  name: string;
  /** The CDK version the manifest was written for. */
  version: string;
  /**
   * The source: references resolved, default types filled in, `$parameters` propagated (each component
   * keeps those in force as `$parameters`), short names mapped, file schemas inlined; every component
   * supported. `definitions` is dropped (its fragments are in place wherever referenced).
   */
  source: DeclarativeSource;
}

/**
 * Loads an Airbyte declarative manifest (YAML or JSON text, or the parsed object) as Airbyte's CDK
 * reads it, and checks that Plugboard can run it: `type` DeclarativeSource (added when absent, as the
 * CDK does), a `version` from 0.29.0 up to 7.x, references that resolve, and only components of
 * SUPPORTED_COMPONENTS, each where it may stand and with the fields it needs. Throws a ManifestLoadError
 * listing every problem found, each with its place (`streams[3].retriever.paginator.pagination_strategy:
 * CustomPaginationStrategy is not supported (Python custom components cannot run in Plugboard)`).
 */
export function loadManifest(source: string | object, options: LoadManifestOptions = {}): LoadedManifest {
  const name = options.name ?? 'manifest';
  const parsed = parseManifest(source);
  if (!parsed.ok) throw new ManifestLoadError(name, [parsed.problem]);
  const manifest = parsed.manifest;

  const problems: ManifestProblem[] = [];
  if (manifest.type === undefined) manifest.type = 'DeclarativeSource';
  const isSource = manifest.type === 'DeclarativeSource';
  if (!isSource) problems.push(problemAt('source', ['type'], `must be DeclarativeSource, not ${JSON.stringify(manifest.type)}`));
  const version = versionProblem(manifest.version);
  if (version !== undefined) problems.push(problemAt('source', ['version'], version));

  const resolved = resolveReferences(manifest);
  problems.push(...resolved.problems);
  if (resolved.exhausted) throw new ManifestLoadError(name, problems);
  const loaded: JsonObject = propagateTypesAndParameters(resolved.manifest);
  if (isSource) problems.push(...checkComponents(loaded));
  if (problems.length > 0) throw new ManifestLoadError(name, problems);

  delete loaded.definitions;
  return { name, version: manifest.version as string, source: loaded as unknown as DeclarativeSource };
}
