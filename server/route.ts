import type { ParameterizedContext } from 'koa';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import type { Caller } from '../core/hosted/permissions/caller.ts';
import type { Access } from '../core/hosted/permissions/roles.ts';
import type { ClaimsFor, TokenUse } from '../core/hosted/token-claims.ts';
import type { TypedSchema } from '../core/hosted/typed-schema.ts';
import type { JsonSchema } from '../core/sdk/index.ts';
import type { ServerConfig } from './config.ts';

/** Who may call a route: nobody needs a token, or the token kinds it takes. */
export type RouteAuth = 'none' | readonly TokenUse[];

/** The claims a handler gets: none on a route without a token, else those of the kinds the route takes. */
export type ClaimsOf<TAuth extends RouteAuth> = TAuth extends readonly (infer TUse extends TokenUse)[] ? ClaimsFor<TUse> : undefined;

/**
 * What a route does, which the caller's permissions must allow (core/hosted/permissions/roles.ts):
 * checked against the most the caller may do anywhere before the handler runs, then against each
 * workspace core resolves (or the organization itself) while it runs. A route without a token does
 * nothing on anyone's behalf.
 */
export type RouteAccess<TAuth extends RouteAuth> = TAuth extends 'none' ? 'none' : Access;

/** The caller a handler gets: none on a route without a token. */
export type CallerOf<TAuth extends RouteAuth> = TAuth extends 'none' ? undefined : Caller;

/** The query of a route that declares no parameters: nothing in it is the handler's to read. */
export type NoQuery = Record<never, never>;

export interface RouteInput<TAuth extends RouteAuth, TBody, TQuery> {
  ctx: ParameterizedContext;
  /** The body, valid against the route's body schema (undefined on a route without one). */
  body: TBody;
  params: Record<string, string>;
  /** The first value of each query parameter, valid against the route's query schema. */
  query: TQuery;
  claims: ClaimsOf<TAuth>;
  /** Who the token is for, with its permissions as they are now. */
  caller: CallerOf<TAuth>;
  hosted: HostedRuntime;
  config: ServerConfig;
}

/**
 * What an answer means and, when it is not the usual body for its status (server/openapi.ts), its
 * JSON Schema, or `file`: it may be a file's bytes, in the file's own Content-Type.
 */
export type ResponseDoc = string | { description: string; schema?: JsonSchema; file?: true };

/**
 * One endpoint, declared: method, path, who may call it, the schemas of its query, body and answer,
 * and the handler. The router and `/openapi.json` are both built from these, so the document can't
 * drift; the handler's types come from the same declarations (the body's and query's from their
 * schemas, the claims' from `auth`, its return value's from `returns`).
 */
export interface RouteDefinition<TAuth extends RouteAuth, TBody, TQuery, TResult> {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Koa-router path; `:name` segments are path params. */
  paths: string[];
  summary: string;
  tags: string[];
  auth: TAuth;
  access: RouteAccess<TAuth>;
  /** The query parameters, one a property (the values are strings); others are ignored. */
  query?: TypedSchema<TQuery>;
  body?: TypedSchema<TBody>;
  /** Success status (default 200). */
  status?: number;
  /** The JSON body the handler answers with; without it, the handler answers none or sets ctx.body itself. */
  returns?: TypedSchema<TResult>;
  /** Every answer the route gives by status, the success one included; the route layer's own are added (server/openapi.ts). */
  responses: Record<number, ResponseDoc>;
  /** Callable from a widget's browser origin (CORS for the widget token's allowed_origin). */
  cors?: boolean;
  /** Failures as RFC 9457 problem details, the public cloud API's form (default: `{detail, error_code}`). */
  problems?: boolean;
  /** Also takes its body form-encoded (application/x-www-form-urlencoded), as OAuth token requests come. */
  formBody?: boolean;
  /** Its return value is the JSON body; undefined: it answered itself (ctx.status, ctx.body). */
  handler(input: RouteInput<TAuth, TBody, TQuery>): Promise<NoInfer<TResult> | undefined> | NoInfer<TResult> | undefined;
}

/**
 * A route of any kind, as the router and the document take them. What the erased types no longer
 * say, server/app.ts makes true before a handler runs: the token is of a kind `auth` names, the body
 * and query match their schemas.
 */
export type AnyRoute = RouteDefinition<RouteAuth, unknown, unknown, unknown>;

export function defineRoute<const TAuth extends RouteAuth, TBody = undefined, TQuery = NoQuery, TResult = never>(
  route: RouteDefinition<TAuth, TBody, TQuery, TResult>,
): RouteDefinition<TAuth, TBody, TQuery, TResult> {
  return route;
}
