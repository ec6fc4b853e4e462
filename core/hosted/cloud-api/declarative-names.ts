/**
 * How published declarative definitions are named at run time. Their sources' `sourceType` is derived
 * from the definition id, unique on every server, so two workspaces' manifests of the same `type`
 * never meet, and no manifest can take a loaded connector's name.
 */

const PREFIX = 'declarative-';
const SOURCE_TYPE = /^declarative-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The `sourceType` of a definition's sources: `declarative-<definitionId>`. */
export function declarativeSourceType(definitionId: string): string {
  return `${PREFIX}${definitionId}`;
}

/** The definition id a declarative `sourceType` names, or undefined for any other type. */
export function definitionIdOf(sourceType: string): string | undefined {
  return SOURCE_TYPE.exec(sourceType)?.[1];
}

/**
 * The runtime connector type of one version of a definition. A runtime registers a type once, so each
 * version registers apart: a sync that started on the previous version finishes on it.
 */
export function declarativeConnectorType(definitionId: string, version: number): string {
  return `${PREFIX}${definitionId}-v${version}`;
}

/** Manifest types a definition may not take: those of the runtime names above. */
export function isReservedType(type: string): boolean {
  return type.startsWith(PREFIX);
}
