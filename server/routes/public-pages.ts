import type { ParameterizedContext } from 'koa';
import { invalidField } from '../../core/errors.ts';
import type { PublicPage } from '../../core/hosted/cloud-api/public-workspaces.ts';
import type { ServerConfig } from '../config.ts';

/** Paging of the public cloud API's lists: `limit` 1-100 (default 20) and `offset`, from the validated query. */
export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: string; offset?: string }): Page {
  return { limit: query.limit === undefined ? 20 : Number(query.limit), offset: query.offset === undefined ? 0 : Number(query.offset) };
}

/** Every value of a query parameter given repeated (`?a=1&a=2`) or comma-separated (`?a=1,2`). */
export function repeatedValues(ctx: ParameterizedContext, name: string): string[] {
  const given = ctx.query[name];
  return (Array.isArray(given) ? given : given === undefined ? [] : [given]).flatMap((value) => value.split(',')).filter((value) => value !== '');
}

/** The page asked for, narrowed to the `workspaceIds` given (lowercased; none: no narrowing), deleted ones too with `includeDeleted=true`. */
export function workspacePage(
  ctx: ParameterizedContext,
  query: { limit?: string; offset?: string; includeDeleted?: string },
): Page & { workspaceIds?: string[]; includeDeleted: boolean } {
  const workspaceIds = repeatedValues(ctx, 'workspaceIds').map((id) => id.toLowerCase());
  return { ...pageOf(query), ...(workspaceIds.length > 0 ? { workspaceIds } : {}), includeDeleted: query.includeDeleted === 'true' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every value of a query parameter of ids (repeated or comma-separated), lowercased; one that is no UUID is a 400 naming it. */
export function uuidValues(ctx: ParameterizedContext, name: string): string[] {
  const values = repeatedValues(ctx, name).map((value) => value.toLowerCase());
  const wrong = values.find((value) => !UUID.test(value));
  if (wrong !== undefined) throw invalidField(['query', name], `"${wrong}" is not a UUID`, 'value_error.uuid');
  return values;
}

/** The addresses of the neighbouring pages, on the server's public URL: `next` only when one follows, `previous` only after the first. */
export function pageLinks(ctx: ParameterizedContext, config: ServerConfig, page: Page, found: PublicPage<unknown>): { next?: string; previous?: string } {
  const link = (offset: number) => {
    const url = new URL(ctx.path, config.publicUrl);
    for (const [key, value] of Object.entries(ctx.query)) for (const item of Array.isArray(value) ? value : [value ?? '']) url.searchParams.append(key, item);
    url.searchParams.set('limit', String(page.limit));
    url.searchParams.set('offset', String(offset));
    return url.href;
  };
  return {
    ...(found.more ? { next: link(page.offset + page.limit) } : {}),
    ...(page.offset > 0 ? { previous: link(Math.max(0, page.offset - page.limit)) } : {}),
  };
}
