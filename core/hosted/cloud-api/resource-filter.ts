import type { SqlValue } from '../../stores/sql-driver.ts';
import { readableWorkspaces } from '../permissions/request-access.ts';
import { placeholders } from './sql-columns.ts';

/** What a list of sources, destinations or connections is narrowed to, and the page of it. */
export interface ResourceFilter {
  workspaceIds?: string[];
  /** Connections only: those carrying any of these tags. */
  tagIds?: string[];
  /** Deleted ones too (their tombstones), in the same order. */
  includeDeleted?: boolean;
  limit: number;
  offset: number;
}

/**
 * The WHERE clause of an organization's rows of a resource table (or of its tombstones, which have
 * the same columns): its workspaces when given, and for connections the tags when given (any of them);
 * only workspaces the caller may read, the others neither listed nor counted.
 */
export function resourceWhere(organizationId: string, filter: Pick<ResourceFilter, 'workspaceIds' | 'tagIds'>): { sql: string; params: SqlValue[] } {
  const readable = readableWorkspaces(filter.workspaceIds?.length ? filter.workspaceIds : undefined);
  const workspaceIds = readable ?? [];
  const tagIds = filter.tagIds ?? [];
  return {
    sql: [
      'organization_id = ?',
      ...(readable?.length === 0 ? ['1 = 0'] : []),
      ...(workspaceIds.length > 0 ? [`workspace_id IN (${placeholders(workspaceIds)})`] : []),
      ...(tagIds.length > 0 ? [`id IN (SELECT connection_id FROM cloud_connection_tags WHERE tag_id IN (${placeholders(tagIds)}))`] : []),
    ].join(' AND '),
    params: [organizationId, ...workspaceIds, ...tagIds],
  };
}
