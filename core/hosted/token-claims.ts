/** Claims of the tokens the hosted server issues (their types generated from schemas/server/token-claims.json, which every verified token must match). */
import { createAjv } from '../schema/ajv.ts';
import type { AccessScope } from './hosted-connectors.ts';
import { compileTyped } from './typed-schema.ts';
import {
  SERVER_SCHEMAS,
  type OperatorTokenClaims,
  type ScopedTokenClaims,
  type TagMode,
  type TokenClaims,
  type WidgetScope,
  type WidgetTokenClaims,
} from './types.generated.ts';

export const OPERATOR_TOKEN_TTL_SECONDS = 900;
export const SCOPED_TOKEN_TTL_SECONDS = 1200;
export const WORKSPACE_SCOPE_CLAIM = 'io.service.auth.workspace_scope';

export type { OperatorTokenClaims, ScopedTokenClaims, TagMode, TokenClaims, WidgetScope, WidgetTokenClaims };

export type TokenUse = TokenClaims['token_use'];
export type ClaimsFor<U extends TokenUse> = Extract<TokenClaims, { token_use: U }>;
/** Claims of a token bound to one workspace. */
type WorkspaceTokenClaims = ClaimsFor<'scoped' | 'widget'>;

/** The widget scope a token carries: a widget token's own, none for any other. */
export function widgetScopeOf(claims: TokenClaims | undefined): WidgetScope | undefined {
  return claims?.token_use === 'widget' ? claims.widget : undefined;
}

/** What a token reaches: a workspace token its workspace, an operator token its whole organization. */
export function accessScopeOf(claims: TokenClaims): AccessScope {
  return claims.token_use === 'operator' ? { organization_id: claims.organization_id } : workspaceScopeOf(claims);
}

/** The workspace a scoped or widget token is bound to, in its organization. */
export function workspaceScopeOf(claims: WorkspaceTokenClaims): Required<AccessScope> {
  return { organization_id: claims.organization_id, workspace_id: claims[WORKSPACE_SCOPE_CLAIM].workspaceId };
}

export const TOKEN_TTL_SECONDS: Record<TokenUse, number> = {
  operator: OPERATOR_TOKEN_TTL_SECONDS,
  scoped: SCOPED_TOKEN_TTL_SECONDS,
  widget: SCOPED_TOKEN_TTL_SECONDS,
};

const validateClaims = compileTyped(createAjv(), SERVER_SCHEMAS['token-claims.json']);

/**
 * The claims of a correctly signed token, or null when they are not of a kind this server issues:
 * a missing or null workspace scope, no organization, an `iat` in the future (beyond `skewSeconds`),
 * a lifetime longer than its kind's. A token issued before widget tokens had a `token_use` of their
 * own (`scoped` with a `widget` claim) is read as the widget token it is.
 */
export function checkTokenClaims(payload: Record<string, unknown>, nowSeconds: number, skewSeconds: number): TokenClaims | null {
  const claims = payload.token_use === 'scoped' && payload.widget !== undefined ? { ...payload, token_use: 'widget' } : payload;
  if (!validateClaims(claims)) return null;
  if (claims.iat > nowSeconds + skewSeconds) return null;
  if (claims.exp - claims.iat > TOKEN_TTL_SECONDS[claims.token_use]) return null;
  return claims;
}
