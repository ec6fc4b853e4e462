import { UpstreamError } from '../errors.ts';
import type { CompiledAction } from '../plugins/compiled-connector.ts';
import { readPath } from '../transport/object-path.ts';

type Row = Record<string, unknown>;

/** Picks the records and meta out of an upstream body, as the action's `response` mapping declares. */
export function mapResponse(action: CompiledAction, body: unknown): { result: unknown; meta: Record<string, unknown> } {
  const { response } = action.definition;
  const found = readPath(body, response.records);
  if (found === undefined || found === null || typeof found !== 'object') {
    throw new UpstreamError(`Upstream response lacks "${response.records || 'a body'}"`, 'upstream_unexpected_response');
  }
  const result = Array.isArray(found) ? found.map((row) => completeRecord(action, row as Row)) : completeRecord(action, found as Row);
  const meta: Record<string, unknown> = {};
  for (const [key, path] of Object.entries(response.meta ?? {})) {
    const value = readPath(body, path);
    // Slack says "no next page" with an empty cursor; callers get null, as for any absent meta value.
    meta[key] = value === undefined || value === '' ? null : value;
  }
  return { result, meta };
}

/**
 * Every field the record schema lists is present (null when upstream omitted it); other fields pass
 * through. The row is completed in place: it was parsed for this call alone, and copying every record
 * of a large page would cost more than the upstream call's own parsing.
 */
function completeRecord(action: CompiledAction, row: Row): Row {
  for (const field of action.recordFields) {
    if (row[field] === undefined) row[field] = null;
  }
  return row;
}
