import type { ActionHooks, UpstreamCall } from '../../../core/sdk/index.ts';
import { widenSelector } from './field-selector.ts';

/**
 * Drive's `fields` for a read. Drive's default partial response is a few fields per resource (and
 * comments, replies and about.get refuse to answer without `fields`), so `*` (every field) is sent
 * when the caller selects nothing: records then carry every field their schema lists. Reads whose
 * params have no `fields` always get every field.
 */
export const everyField: Pick<UpstreamCall, 'defaults'> = { defaults: { fields: '*' } };

/** Params of a read whose caller may slim the response with a `fields` selector. */
interface SelectsFields {
  fields?: string;
}

/** A list's hooks: a caller's `fields` is widened with the list's paging meta and the id of each record in `collection`. */
export function widenListSelection<P extends SelectsFields>(collection: string, meta: string[] = ['nextPageToken']): ActionHooks<P> {
  return widenSelection<P>([...meta, `${collection}/id`]);
}

/** A single record's hooks: a caller's `fields` is widened with the record's id. */
export function widenRecordSelection<P extends SelectsFields>(): ActionHooks<P> {
  return widenSelection<P>(['id']);
}

/**
 * A selection that left out the next page token or a record's id would silently shorten a list or
 * break the record schema, so the caller's selector is widened with `alwaysSelect`. Only a caller's:
 * the default `*` already selects everything.
 */
function widenSelection<P extends SelectsFields>(alwaysSelect: string[]): ActionHooks<P> {
  return {
    prepareParams: (params) => (typeof params.fields === 'string' ? { ...params, fields: widenSelector(params.fields, alwaysSelect) } : params),
  };
}
