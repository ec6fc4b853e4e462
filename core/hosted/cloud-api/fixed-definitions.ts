import type { Runtime } from '../../runtime/runtime.ts';
import type { ActorKind, ActorKinds } from './actor-kind.ts';
import { declarativeSourceType } from './declarative-names.ts';
import type { DeclarativeTable } from './declarative-table.ts';
import { definitionImage } from './definition-image.ts';
import type { FixedDefinition } from './public-definitions.ts';

/** Why the types this server runs cannot change through the API (Airbyte's words for its public definitions). */
const BUILT_IN = 'Public definitions cannot be modified: this one is a type this server runs';

/** More declarative definitions than a workspace could publish: the definitions list takes no paging. */
const ALL = 1_000_000;

/**
 * The definitions of the types this server runs (every loaded connector, plugins included, and
 * Airbyte's names for what they read; the destinations), by their stable ids. The image tag is the
 * connector's version when it declares one (`connectorType` names it), else `latest`.
 */
export function typeDefinitions<K extends ActorKind & { connectorType?: string }>(
  actorType: 'source' | 'destination',
  kinds: ActorKinds<K>,
  runtime: Runtime,
): FixedDefinition[] {
  return kinds.names().map((name) => {
    const kind = kinds.byName(name)!;
    const connector = kind.connectorType !== undefined && runtime.hasConnector(kind.connectorType) ? runtime.plugin(kind.connectorType) : undefined;
    const dockerImageTag = connector?.definition.version ?? 'latest';
    return { definition: { id: kind.definitionId, name, dockerRepository: definitionImage(actorType, name), dockerImageTag }, readOnly: BUILT_IN };
  });
}

/** A workspace's declarative source definitions, by their own ids, tagged with their version; they change through their own routes. */
export async function declarativeDefinitions(table: DeclarativeTable, workspaceId: string): Promise<FixedDefinition[]> {
  return (await table.list(workspaceId, { limit: ALL, offset: 0 })).map((row) => ({
    definition: { id: row.id, name: row.name, dockerRepository: definitionImage('source', declarativeSourceType(row.id)), dockerImageTag: String(row.version) },
    readOnly: `Declarative source definition ${row.id} changes through /v1/workspaces/${workspaceId}/definitions/declarative_sources/${row.id}`,
  }));
}
