/** Airbyte declarative manifests: loading one as Airbyte's CDK reads it, checked against what Plugboard runs. */
export { loadManifest, type LoadedManifest, type LoadManifestOptions } from './load-manifest.ts';
export { ManifestLoadError, type ManifestProblem, type ManifestProblemKind } from './manifest-load-error.ts';
export { manifestSpec, primaryKeyPaths, secretPaths, type ManifestSpec, type ManifestStreamDescription } from './manifest-spec.ts';
export { NEWEST_MANIFEST_MAJOR, OLDEST_MANIFEST_VERSION, versionProblem } from './manifest-version.ts';
export {
  type ComponentKind,
  type ComponentSlot,
  type ComponentSlotShape,
  KIND_NAMES,
  SHORT_NAMES,
  SUPPORTED_COMPONENTS,
  type SupportedComponent,
  type SupportedComponentType,
} from './supported-components.ts';
export { UNSUPPORTED_AIRBYTE_COMPONENTS } from './airbyte-component-names.ts';
export { CUSTOM_COMPONENT_TYPES, DEFAULT_COMPONENT_TYPES } from './default-types.ts';
export { MAX_RESOLVED_VALUES, resolveReferences } from './resolve-references.ts';
export { propagateTypesAndParameters } from './propagate-parameters.ts';
export type * from './model.ts';
