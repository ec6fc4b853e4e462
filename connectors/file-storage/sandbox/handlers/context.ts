import type { ContentSource } from '../content.ts';
import { fieldsRequired } from '../errors.ts';
import type { Shape } from '../field-schema.ts';
import { applyFields, parseFields, type Selection } from '../fields.ts';
import type { QueryParams } from '../params.ts';
import type { DriveStore } from '../store.ts';

/** What every handler gets: the data, the query, and the path parameters of its route. */
export interface HandlerContext {
  store: DriveStore;
  params: QueryParams;
  path: Readonly<Record<string, string>>;
}

export type HandlerResult = { kind: 'json'; body: unknown } | { kind: 'media'; source: ContentSource; mimeType: string; headers?: Record<string, string> };

export type Handler = (ctx: HandlerContext) => HandlerResult;

/** Path parameter (always present: the router only calls a handler when its template matched). */
export function pathParam(ctx: HandlerContext, name: string): string {
  return ctx.path[name] ?? '';
}

export interface FieldsPolicy {
  shape: Shape;
  /**
   * Drive's default partial response for the method, used when `fields` is absent. Methods without
   * one (comments, replies, about.get) refuse to answer without `fields`, as Drive does.
   */
  defaults?: Selection;
}

export function defaults(selector: string, shape: Shape): Selection {
  return parseFields(selector, shape);
}

/** The selection for this request: `fields` when given (validated), else the method's default. */
export function selectionFor(ctx: HandlerContext, policy: FieldsPolicy): Selection {
  const text = ctx.params.str('fields');
  if (text === undefined) {
    if (!policy.defaults) throw fieldsRequired();
    return policy.defaults;
  }
  return parseFields(text, policy.shape);
}

export function json(body: unknown, sel: Selection): HandlerResult {
  return { kind: 'json', body: applyFields(body, sel) };
}
