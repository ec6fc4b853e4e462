import type { ActionDefinition } from './types.ts';
import searchParams from '../../schemas/core/search-params.json' with { type: 'json' };
import searchHits from '../../schemas/core/search-hits.json' with { type: 'json' };

/**
 * Declares the hosted-only `search` action of an entity. Search runs over the hosted context store,
 * not the upstream, so every connector shares one param schema and one hit shape.
 */
export function defineSearchAction(entity: string): ActionDefinition {
  return {
    entity,
    action: 'search',
    description: `Search replicated ${entity} (hosted mode only).`,
    params: searchParams,
    record: searchHits,
    response: { records: '' },
    hostedOnly: true,
  };
}
