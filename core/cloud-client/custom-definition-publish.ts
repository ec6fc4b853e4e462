import { ValidationError } from '../errors.ts';
import { isAirbyteManifest } from '../hosted/cloud-api/declarative-manifest.ts';
import { type Manifest, manifestObject as readManifest } from '../hosted/cloud-api/declarative-manifest.ts';
import { loadManifest, ManifestLoadError } from '../manifests/index.ts';
import { isObject } from '../plugins/value-shapes.ts';
import type { ApiDeclarativeSourceDefinition, ApiDockerSourceDefinition, JsonObject } from './api-types.ts';
import { type CustomDefinitionType, CustomCloudSourceDefinition, definitionsPath } from './custom-definition.ts';
import { CloudError, DuplicateResourcesError, InputError } from './errors.ts';
import { unsupportedIfAbsent } from './unsupported.ts';
import type { CloudWorkspace } from './workspace.ts';

/** Exactly one of: a declarative manifest (YAML text or its object), or a docker image and tag. */
export type CustomSourceDefinitionInput =
  | { manifestYaml: string | JsonObject; dockerImage?: undefined; dockerTag?: undefined }
  | { dockerImage: string; dockerTag: string; manifestYaml?: undefined };

export interface PublishOptions {
  /** Refuse a name another definition of the same type has (default true): DuplicateResourcesError. */
  unique?: boolean;
  /**
   * Check the manifest before sending it (yaml only; default true): an Airbyte manifest loads as the
   * server's interpreter loads it, any other parses to a mapping with a `type`; else an InputError, no call made.
   */
  preValidate?: boolean;
  /** Testing values for the definition's builder project, replacing any there (yaml only; config API). */
  testingValues?: JsonObject;
}

export async function publishCustomSourceDefinition(
  workspace: CloudWorkspace,
  name: string,
  definition: CustomSourceDefinitionInput,
  options: PublishOptions = {},
): Promise<CustomCloudSourceDefinition> {
  const input = definition as { manifestYaml?: unknown; dockerImage?: unknown; dockerTag?: unknown };
  const hasManifest = input.manifestYaml !== undefined && input.manifestYaml !== null;
  const hasDocker = (input.dockerImage ?? input.dockerTag) !== undefined;
  if (hasManifest === hasDocker) throw new InputError('give exactly one of manifestYaml, or dockerImage with dockerTag', 'manifestYaml');
  if (hasDocker && (typeof input.dockerImage !== 'string' || !input.dockerImage || typeof input.dockerTag !== 'string' || !input.dockerTag)) {
    throw new InputError('a docker definition needs both dockerImage and dockerTag', 'dockerTag');
  }
  if (hasDocker && options.testingValues) throw new InputError('testingValues apply to yaml definitions only', 'testingValues');
  const definitionType: CustomDefinitionType = hasManifest ? 'yaml' : 'docker';
  // Parsed (and checked) before anything is sent, so a bad manifest fails without a call.
  const manifest = hasManifest ? manifestObject(input.manifestYaml, options.preValidate ?? true) : undefined;

  if (options.unique ?? true) {
    const taken = await workspace.listCustomSourceDefinitions(definitionType, { name });
    if (taken.length > 0) throw new DuplicateResourcesError('custom source definition', name);
  }
  const path = definitionsPath(workspace.workspaceId, definitionType);
  const body = manifest
    ? { name, manifest, workspaceId: workspace.workspaceId }
    : { name, dockerRepository: input.dockerImage, dockerImageTag: input.dockerTag };
  const created = await unsupportedIfAbsent(
    workspace.api.post<ApiDeclarativeSourceDefinition | ApiDockerSourceDefinition>(path, body),
    `${definitionType} custom source definitions`,
    workspace.apiRoot,
  );
  const published = new CustomCloudSourceDefinition(workspace, definitionType, created);
  if (manifest && options.testingValues) await setTestingValues(workspace, published, manifest, options.testingValues);
  return published;
}

/**
 * The manifest as an object, read as the server reads it (declarative-manifest.ts). With preValidate,
 * an Airbyte manifest must load as the server's interpreter loads it (every problem named, each at its
 * place), any other must name its `type`.
 */
function manifestObject(given: unknown, preValidate: boolean): JsonObject {
  if (typeof given !== 'string' && !isObject(given)) throw new InputError('manifestYaml must be a mapping or its YAML text', 'manifestYaml');
  let manifest: Manifest;
  try {
    manifest = readManifest(given, ['manifestYaml']);
  } catch (error) {
    if (error instanceof ValidationError) throw new InputError(error.message, 'manifestYaml');
    throw error;
  }
  if (preValidate && isAirbyteManifest(manifest)) assertLoads(manifest);
  else if (preValidate && typeof manifest.type !== 'string') throw new InputError('the manifest names no type', 'manifestYaml');
  return manifest as JsonObject;
}

/** An Airbyte manifest the interpreter cannot load is an InputError listing its problems on one line. */
function assertLoads(manifest: Manifest): void {
  try {
    loadManifest(manifest);
  } catch (error) {
    if (!(error instanceof ManifestLoadError)) throw error;
    throw new InputError(`the manifest cannot run on Plugboard: ${error.problems.join('; ')}`, 'manifestYaml');
  }
}

/**
 * Testing values live on the definition's builder project (config API). The definition is already
 * published when this runs, so a failure says so rather than suggesting nothing happened.
 */
async function setTestingValues(
  workspace: CloudWorkspace,
  definition: CustomCloudSourceDefinition,
  manifest: JsonObject,
  testingValues: JsonObject,
): Promise<void> {
  try {
    const { builderProjectId } = await workspace.api.configPost<{ builderProjectId: string | null }>('/connector_builder_projects/get_for_definition_id', {
      actorDefinitionId: definition.definitionId,
      workspaceId: workspace.workspaceId,
    });
    if (!builderProjectId) throw new CloudError(`definition ${definition.definitionId} has no builder project`);
    const spec = (manifest.spec ?? {}) as JsonObject;
    await workspace.api.configPost('/connector_builder_projects/update_testing_values', {
      workspaceId: workspace.workspaceId,
      builderProjectId,
      spec: { connectionSpecification: spec.connection_specification ?? spec.connectionSpecification ?? {} },
      testingValues,
    });
  } catch (cause) {
    throw new CloudError(
      `definition ${definition.definitionId} was published, but its testing values could not be set: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
