/** Claims of the tokens the hosted server issues (DESIGN "Tokens"), and the schema every verified token must match. */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../schema/ajv.ts';
import tokenClaimsSchema from '../../schemas/server/token-claims.json' with { type: 'json' };

export const OPERATOR_TOKEN_TTL_SECONDS = 900;
export const SCOPED_TOKEN_TTL_SECONDS = 1200;
export const WORKSPACE_SCOPE_CLAIM = 'io.service.auth.workspace_scope';

export type TagMode = 'any' | 'all';

/** What a widget token's scoped token carries, so the filters can't be bypassed by editing its URL. */
export interface WidgetScope {
  allowed_origin: string;
  source_template_tags: string[];
  source_template_tags_mode: TagMode;
  connection_template_tags: string[];
  connection_template_tags_mode: TagMode;
}

interface RegisteredClaims {
  sub: string;
  iat: number;
  exp: number;
}

export interface OperatorTokenClaims extends RegisteredClaims {
  token_use: 'operator';
  /** The application's client id. */
  sub: string;
  organization_id: string;
}

export interface ScopedTokenClaims extends RegisteredClaims {
  token_use: 'scoped';
  organization_id: string;
  [WORKSPACE_SCOPE_CLAIM]: { workspaceId: string };
}

/**
 * The scoped token inside a widget token: one workspace, and only what the widget's browser needs
 * (templates its tags allow, the workspace's embedded sources); every other route refuses it.
 */
export interface WidgetTokenClaims extends RegisteredClaims {
  token_use: 'widget';
  organization_id: string;
  [WORKSPACE_SCOPE_CLAIM]: { workspaceId: string };
  widget: WidgetScope;
}

export type TokenUse = 'operator' | 'scoped' | 'widget';
export type TokenClaims = OperatorTokenClaims | ScopedTokenClaims | WidgetTokenClaims;
export type ClaimsFor<U extends TokenUse> = Extract<TokenClaims, { token_use: U }>;
/** Claims of a token bound to one workspace. */
export type WorkspaceTokenClaims = ScopedTokenClaims | WidgetTokenClaims;

/** The widget scope a token carries: a widget token's own, none for any other. */
export function widgetScopeOf(claims: TokenClaims | undefined): WidgetScope | undefined {
  return claims?.token_use === 'widget' ? claims.widget : undefined;
}

export const TOKEN_TTL_SECONDS: Record<TokenUse, number> = {
  operator: OPERATOR_TOKEN_TTL_SECONDS,
  scoped: SCOPED_TOKEN_TTL_SECONDS,
  widget: SCOPED_TOKEN_TTL_SECONDS,
};

const validateClaims: ValidateFunction = createAjv().compile(tokenClaimsSchema);

/**
 * The claims of a correctly signed token, or null when they are not of a kind this server issues:
 * a missing or null workspace scope, no organization, an `iat` in the future (beyond `skewSeconds`),
 * a lifetime longer than its kind's. A token issued before widget tokens had a `token_use` of their
 * own (`scoped` with a `widget` claim) is read as the widget token it is.
 */
export function checkTokenClaims(payload: Record<string, unknown>, nowSeconds: number, skewSeconds: number): TokenClaims | null {
  const claims = payload.token_use === 'scoped' && payload.widget !== undefined ? { ...payload, token_use: 'widget' } : payload;
  if (!validateClaims(claims)) return null;
  const typed = claims as unknown as TokenClaims;
  if (typed.iat > nowSeconds + skewSeconds) return null;
  if (typed.exp - typed.iat > TOKEN_TTL_SECONDS[typed.token_use]) return null;
  return typed;
}
