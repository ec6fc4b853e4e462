/** Claims of the tokens the hosted server issues (DESIGN "Tokens"). */

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

export interface OperatorTokenClaims {
  token_use: 'operator';
  /** The application's client id. */
  sub: string;
  organization_id: string;
}

export interface ScopedTokenClaims {
  token_use: 'scoped';
  sub: string;
  organization_id: string;
  [WORKSPACE_SCOPE_CLAIM]: { workspaceId: string };
  widget?: WidgetScope;
}

export type TokenUse = 'operator' | 'scoped';
export type ClaimsFor<U extends TokenUse> = U extends 'operator' ? OperatorTokenClaims : ScopedTokenClaims;
