import type { UpstreamCall } from '../../../core/sdk/index.ts';

/**
 * Drive's `fields` for a read. Drive's default partial response is a few fields per resource (and
 * comments, replies and about.get refuse to answer without `fields`), so `*` (every field) is sent
 * when the caller selects nothing: records then carry what SPEC 2.4 lists. A caller's selection is
 * widened by core with what must never go missing: the cursors that paging follows and each
 * record's non-null `id`.
 */
function selectFields(alwaysSelect: string[]): Pick<UpstreamCall, 'defaults' | 'fieldSelector'> {
  return { defaults: { fields: '*' }, fieldSelector: { param: 'fields', alwaysSelect } };
}

/** A list: its next page token (and other meta paging depends on) and the id of each record in `collection`. */
export function listFields(collection: string, meta: string[] = ['nextPageToken']): Pick<UpstreamCall, 'defaults' | 'fieldSelector'> {
  return selectFields([...meta, `${collection}/id`]);
}

/** A single record: its id. */
export const recordFields = selectFields(['id']);

/**
 * Every field, for the reads whose SPEC params have no `fields`: Drive's default partial response
 * would leave most of the record null.
 */
export const everyField: Pick<UpstreamCall, 'defaults'> = { defaults: { fields: '*' } };
