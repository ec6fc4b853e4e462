import type { ConnectorClient, ConnectorTypeMap } from '../../core/index.ts';
import type { CompiledConnector } from '../../core/plugins/compiled-connector.ts';
import type { KitAction } from './kit-actions.ts';

/**
 * Params to run a manifest's `get` with when the kit is given none: the primary key of the first
 * record its stream lists. Its params schema is the runtime's, so no `examples` can name an id that
 * exists upstream. Undefined for every other action.
 */
export async function manifestGetCalls(
  connector: CompiledConnector,
  action: KitAction,
  client: Pick<ConnectorClient<ConnectorTypeMap>, 'execute'>,
): Promise<Array<Record<string, unknown>> | undefined> {
  const runner = connector.manifest;
  const { entity, action: name } = action.definition;
  if (!runner || name !== 'get') return undefined;
  const stream = runner.spec.streams.find((candidate) => candidate.name === runner.entities.get(entity));
  const key = stream?.primaryKey[0]?.[0];
  const { result } = await client.execute({ entity, action: 'list', params: { limit: 1 } });
  const first = Array.isArray(result) ? (result[0] as Record<string, unknown> | undefined) : undefined;
  if (key === undefined || first?.[key] === undefined || first[key] === null) {
    throw new Error(`${entity}.get: its list answered no record with a ${key ?? 'primary key'} to get; seed the upstream, or pass \`calls\` to the kit`);
  }
  return [{ id: first[key] }];
}
