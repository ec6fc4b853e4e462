import type { ParameterizedContext } from 'koa';
import { AccessDeniedError, AuthenticationError } from '../../core/errors.ts';
import { originMatches } from '../../core/hosted/allowed-origin.ts';
import type { OperatorTokenClaims, ScopedTokenClaims } from '../../core/hosted/token-claims.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import type { RouteAuth } from '../route.ts';

export function bearerToken(ctx: ParameterizedContext): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  return match?.[1];
}

/**
 * Verifies the bearer token a route asks for (SPEC 5). A widget's scoped token used from a browser
 * must come from its allowed origin.
 */
export async function authenticate(ctx: ParameterizedContext, tokens: TokenService, auth: RouteAuth): Promise<OperatorTokenClaims | ScopedTokenClaims | undefined> {
  if (auth === 'none') return undefined;
  const token = bearerToken(ctx);
  if (!token) throw new AuthenticationError();
  const claims: OperatorTokenClaims | ScopedTokenClaims = await tokens.verify(token, auth === 'operator-or-scoped' ? (['operator', 'scoped'] as const) : auth);
  const origin = ctx.get('Origin');
  if (claims.token_use === 'scoped' && claims.widget && origin && !originMatches(claims.widget.allowed_origin, origin)) throw new AccessDeniedError();
  return claims;
}
