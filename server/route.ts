import type { ParameterizedContext } from 'koa';
import type { JsonSchema } from '../core/sdk/index.ts';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import type { TokenClaims, TokenUse } from '../core/hosted/token-claims.ts';
import type { ServerConfig } from './config.ts';

/** Who may call a route: nobody needs a token, or the token kinds it takes. */
export type RouteAuth = 'none' | readonly TokenUse[];

export interface RouteInput<TBody> {
  ctx: ParameterizedContext;
  body: TBody;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  claims: TokenClaims | undefined;
  hosted: HostedRuntime;
  config: ServerConfig;
}

/**
 * One endpoint, declared: method, path, who may call it, the schema its body must match, and the
 * handler. The router and `/openapi.json` are both built from these, so the document can't drift.
 */
// biome-ignore lint/suspicious/noExplicitAny: a route without a body schema takes whatever arrives; the handler checks it.
export interface RouteDefinition<TBody = any> {
  method: 'get' | 'post' | 'delete';
  /** Koa-router path; `:name` segments are path params. */
  paths: string[];
  summary: string;
  tags: string[];
  auth: RouteAuth;
  body?: JsonSchema;
  /** Success status; the handler's return value is the JSON body (undefined: the handler set ctx.body itself). */
  status?: number;
  responses: Record<number, string>;
  /** Callable from a widget's browser origin (CORS for the widget token's allowed_origin). */
  cors?: boolean;
  handler(input: RouteInput<TBody>): Promise<unknown> | unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: as RouteDefinition.
export function defineRoute<TBody = any>(route: RouteDefinition<TBody>): RouteDefinition<TBody> {
  return route;
}
