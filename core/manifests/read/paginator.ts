/**
 * The CDK's paginators. NoPagination reads one page. DefaultPaginator asks its strategy for the next
 * token after each page and injects it where `page_token_option` says (a RequestOption, or RequestPath:
 * the token is the next URL), with the strategy's page size in `page_size_option` on every request:
 * - CursorPagination: stop when `stop_condition` holds, else the token is `cursor_value` (templates see
 *   `response`, `headers` with `link` parsed, `last_record`, `last_page_size`); an empty token stops;
 * - OffsetIncrement: the offset grows by the page's size; a page shorter than `page_size` (or empty)
 *   is the last; offset 0 is sent first only with `inject_on_first_request`;
 * - PageIncrement: the page number grows by one from `start_from_page`, same stop rule.
 * A page's size counts the records extracted before the record filter, as the CDK counts it now.
 */
import type { DefaultPaginator, Paginator as PaginatorComponent, RequestOption } from '../model.ts';
import { parseLinks, type UpstreamResponse } from './http-client.ts';
import { ManifestReadError } from './read-errors.ts';
import type { ReadRuntime } from './read-runtime.ts';
import { injectOption, type RequestParts } from './request-parts.ts';
import type { StreamRecord } from './record-selector.ts';

export interface PageFacts {
  response: UpstreamResponse;
  /** The first decoded body (`response` in templates). */
  decoded: unknown;
  lastRecord: StreamRecord | null;
  lastPageSize: number;
}

/** A token, or undefined for none (no further page, or nothing to send on the first). */
export type PageToken = unknown;

export interface PaginatorRuntime {
  initialToken(): PageToken | undefined;
  nextToken(page: PageFacts, lastToken: PageToken | undefined): PageToken | undefined;
  /** What the request carries for this token: the token and the page size, where the options say. */
  options(token: PageToken | undefined): Partial<RequestParts>[];
  /** The next request's URL or path, with a RequestPath token option. */
  path(token: PageToken | undefined): string | undefined;
}

const ONE_PAGE: PaginatorRuntime = { initialToken: () => undefined, nextToken: () => undefined, options: () => [], path: () => undefined };

export function paginatorFor(component: PaginatorComponent | undefined, runtime: ReadRuntime): PaginatorRuntime {
  if (component === undefined || component === null || component.type === 'NoPagination') return ONE_PAGE;
  return defaultPaginator(component, runtime);
}

/** Python's truthiness of a token: None, "", 0, False and empty collections end the pagination. */
function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function defaultPaginator(component: DefaultPaginator, runtime: ReadRuntime): PaginatorRuntime {
  const { templates } = runtime;
  const strategy = component.pagination_strategy;
  const context = { config: runtime.config, parameters: strategy.$parameters ?? {} };
  // With the config alone: an OffsetIncrement's page_size may read `response`, and is then evaluated per page only.
  const pageSize =
    strategy.page_size === undefined || strategy.page_size === null || (strategy.type === 'OffsetIncrement' && !component.page_size_option)
      ? undefined
      : templates.number(strategy.page_size, context, 'page_size');
  if (component.page_size_option && pageSize === undefined) throw new ManifestReadError('page_size_option needs a pagination strategy with a page_size');
  const tokenOption = component.page_token_option;

  const initialToken = (): PageToken | undefined => {
    if (strategy.type === 'OffsetIncrement') return strategy.inject_on_first_request ? 0 : undefined;
    if (strategy.type === 'PageIncrement') return strategy.inject_on_first_request ? (strategy.start_from_page ?? 0) : undefined;
    return undefined;
  };

  const nextToken = (page: PageFacts, lastToken: PageToken | undefined): PageToken | undefined => {
    switch (strategy.type) {
      case 'CursorPagination': {
        const headers: Record<string, unknown> = { ...page.response.headers };
        // As requests' `dict(response.headers)` with `headers['link']` replaced by the parsed links.
        for (const name of Object.keys(headers)) if (name.toLowerCase() === 'link') delete headers[name];
        headers.link = parseLinks(page.response.headers);
        const pageContext = {
          config: runtime.config,
          parameters: strategy.$parameters ?? {},
          response: page.decoded,
          headers,
          last_record: page.lastRecord,
          last_page_size: page.lastPageSize,
        };
        if (typeof strategy.stop_condition === 'string' && strategy.stop_condition !== '' && templates.boolean(strategy.stop_condition, pageContext))
          return undefined;
        const token = templates.string(strategy.cursor_value, pageContext);
        return isTruthy(token) ? token : undefined;
      }
      case 'OffsetIncrement': {
        const size =
          strategy.page_size === undefined || strategy.page_size === null
            ? undefined
            : templates.number(strategy.page_size, { ...context, response: page.decoded }, 'page_size');
        if ((size !== undefined && size !== 0 && page.lastPageSize < size) || page.lastPageSize === 0) return undefined;
        if (lastToken === undefined || lastToken === null) return page.lastPageSize;
        if (typeof lastToken !== 'number') throw new ManifestReadError('OffsetIncrement needs a numeric offset');
        return lastToken + page.lastPageSize;
      }
      case 'PageIncrement': {
        if ((pageSize !== undefined && pageSize !== 0 && page.lastPageSize < pageSize) || page.lastPageSize === 0) return undefined;
        if (lastToken === undefined || lastToken === null) return (strategy.start_from_page ?? 0) + 1;
        if (typeof lastToken !== 'number') throw new ManifestReadError('PageIncrement needs a numeric page number');
        return lastToken + 1;
      }
      default:
        throw new ManifestReadError(`Pagination strategy ${(strategy as { type: string }).type} cannot run`, 'manifest_unsupported_component');
    }
  };

  const options = (token: PageToken | undefined): Partial<RequestParts>[] => {
    const parts: Partial<RequestParts>[] = [];
    if (tokenOption && tokenOption.type === 'RequestOption' && token !== undefined && token !== null) {
      parts.push(injectOption(tokenOption as RequestOption, token, templates, runtime.config));
    }
    if (component.page_size_option && pageSize) parts.push(injectOption(component.page_size_option, pageSize, templates, runtime.config));
    return parts;
  };

  const path = (token: PageToken | undefined): string | undefined => {
    if (tokenOption?.type !== 'RequestPath' || !isTruthy(token)) return undefined;
    return String(token);
  };

  return { initialToken, nextToken, options, path };
}
