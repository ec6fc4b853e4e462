import type { ActionDefinition, SearchIndex } from './types.ts';
import searchParams from '../../schemas/core/search-params.json' with { type: 'json' };
import searchHits from '../../schemas/core/search-hits.json' with { type: 'json' };

/**
 * Declares the `search` action of an entity, with what the context store keeps of it. Search reads
 * the store that replication fills, not the upstream, so every connector shares one param schema and
 * one hit shape; the filter is checked against `index.document` when the search runs.
 */
export function defineSearchAction(entity: string, index: SearchIndex): ActionDefinition {
  return {
    entity,
    action: 'search',
    description: `Search the replicated ${entity} in the context store (hosted, or in-process with a local context store).`,
    params: searchParams,
    record: searchHits,
    response: { records: '' },
    hostedOnly: true,
    searchIndex: index,
  };
}
