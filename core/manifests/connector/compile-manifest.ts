import type { Ajv } from 'ajv';
import { ConnectorLoadError } from '../../errors.ts';
import { CompiledConnector } from '../../plugins/compiled-connector.ts';
import { checkDefinition } from '../../plugins/definition-checks.ts';
import { compileSchemas } from '../../plugins/schema-compilation.ts';
import { createAjv } from '../../schema/ajv.ts';
import { type LoadedManifest, loadManifest } from '../load-manifest.ts';
import { manifestDefinition } from './manifest-definition.ts';
import { ManifestRunner } from './manifest-runner.ts';

/**
 * An Airbyte manifest (YAML or JSON text, or the parsed object) as a loaded connector of type
 * `type`: its streams as entities, read by the interpreter. A manifest Plugboard cannot run throws
 * the ManifestLoadError that names each component and its place.
 */
export function compileManifestConnector(source: string | object, type: string): CompiledConnector {
  return compileLoadedManifest(loadManifest(source, { name: type }), type);
}

/** Manifests' schemas are their authors': checked for what they say, not for Plugboard's own strictness. */
const manifestAjv = createAjv({ lenient: true });

export function compileLoadedManifest(loaded: LoadedManifest, type: string, ajv: Ajv = manifestAjv): CompiledConnector {
  const runner = new ManifestRunner(loaded);
  const definition = manifestDefinition(loaded, type, runner.spec, runner.entities, ajv);
  const validators = compileSchemas(definition, ajv);
  const problems = [...checkDefinition(definition, { servedByRuntime: true }), ...validators.problems];
  if (problems.length > 0) throw new ConnectorLoadError(type, problems);
  runner.validateConfig = validators.config;
  return new CompiledConnector(definition, validators, runner);
}
