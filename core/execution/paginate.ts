import { BadRequestError, UpstreamError } from '../errors.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { DownloadResult, ExecuteRequest, ExecuteResult } from './types.ts';

/**
 * Iterates every record of a paginated list, following the connector's cursor (the meta
 * `next_cursor`, `nextPageToken`...) until the upstream says there is no next page.
 */
export async function* paginate(
  connector: CompiledConnector,
  execute: (request: ExecuteRequest) => Promise<ExecuteResult | DownloadResult>,
  request: ExecuteRequest,
): AsyncGenerator<Record<string, unknown>> {
  for await (const page of paginatePages(connector, execute, request)) yield* page.result as Array<Record<string, unknown>>;
}

/** The pages of a paginated list, with their meta (a change feed's last page carries its next token). */
export async function* paginatePages(
  connector: CompiledConnector,
  execute: (request: ExecuteRequest) => Promise<ExecuteResult | DownloadResult>,
  request: ExecuteRequest,
): AsyncGenerator<ExecuteResult> {
  const { pagination } = connector.definition;
  const action = connector.resolve(request.entity, request.action);
  if (!pagination || !action.definition.paginated) {
    throw new BadRequestError(`${request.entity}.${request.action} is not a paginated list`, 'not_paginated');
  }
  let params = { ...(request.params ?? {}) };
  const seenCursors = new Set<string>();
  for (;;) {
    // Paginated actions are lists, never downloads.
    const page = (await execute({ ...request, params })) as ExecuteResult;
    yield page;
    const next = page.connector_metadata[pagination.nextCursorMeta];
    if (typeof next !== 'string' || next === '') return;
    // A cursor seen before would loop forever; stopping quietly would hand back a short list.
    if (seenCursors.has(next)) throw new UpstreamError('Upstream returned a page cursor it had already returned', 'upstream_pagination_loop');
    seenCursors.add(next);
    params = { ...params, [pagination.cursorParam]: next };
  }
}
