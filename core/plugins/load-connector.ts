import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Ajv } from 'ajv';
import { ConnectorLoadError } from '../errors.ts';
import { compileManifestConnector } from '../manifests/connector/compile-manifest.ts';
import { typeFromPath } from '../manifests/connector/entity-names.ts';
import { type ConnectorDefinition, isManifestPackage } from '../sdk/index.ts';
import { importModule } from '../modules/import-module.ts';
import { checkDefinition } from './definition-checks.ts';
import { CompiledConnector } from './compiled-connector.ts';
import { compileSchemas } from './schema-compilation.ts';
import { specifierKind } from './specifier-kind.ts';

/** A path to an Airbyte manifest, loaded as a connector of its own rather than imported. */
const MANIFEST_FILE = /\.ya?ml$/i;

/**
 * Imports a connector module by specifier (a package name, a file URL, or a path, relative paths
 * being taken from the working directory), checks its definition and compiles its schemas. A path
 * to a `.yaml` file is an Airbyte manifest, run as the connector named after it (see typeFromPath).
 */
export async function loadConnectorModule(specifier: string, ajv: Ajv): Promise<CompiledConnector> {
  let module: Record<string, unknown>;
  const path = specifierKind(specifier) === 'path' ? resolve(specifier) : undefined;
  if (path !== undefined && MANIFEST_FILE.test(path)) return loadManifestFile(specifier, path);
  try {
    module = await importModule(path === undefined ? specifier : pathToFileURL(path).href);
  } catch (error) {
    // Name what was imported: a relative path's meaning depends on the working directory.
    const tried = path ?? JSON.stringify(specifier);
    throw new ConnectorLoadError(specifier, [`the module cannot be imported (tried ${tried}): ${(error as Error).message}`]);
  }
  const exported = module.default ?? module.connector;
  if (isManifestPackage(exported)) return compileManifestConnector(exported.manifest, exported.type);
  return compileConnector(exported, ajv, specifier);
}

async function loadManifestFile(specifier: string, path: string): Promise<CompiledConnector> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConnectorLoadError(specifier, [`the manifest cannot be read (tried ${path}): ${(error as Error).message}`]);
  }
  return compileManifestConnector(text, typeFromPath(path));
}

/**
 * Checks a definition given as a value and compiles its schemas: the compiled connector, or one
 * ConnectorLoadError listing every problem (structural ones and every schema that does not compile).
 */
export function compileConnector(candidate: unknown, ajv: Ajv, source: string): CompiledConnector {
  const validators = compileSchemas(candidate, ajv);
  const problems = [...checkDefinition(candidate), ...validators.problems];
  if (problems.length > 0) throw new ConnectorLoadError(source, problems);
  return new CompiledConnector(candidate as ConnectorDefinition, validators);
}
