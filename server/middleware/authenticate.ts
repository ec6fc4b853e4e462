import type { ParameterizedContext } from 'koa';
import { AccessDeniedError, AuthenticationError } from '../../core/errors.ts';
import { originMatches } from '../../core/hosted/allowed-origin.ts';
import type { TokenClaims } from '../../core/hosted/token-claims.ts';
import type { TokenService } from '../../core/hosted/token-service.ts';
import type { RouteAuth } from '../route.ts';

export function bearerToken(ctx: ParameterizedContext): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  return match?.[1];
}

/**
 * Verifies the bearer token a route asks for: a token of a kind the route does not take is a
 * 401, but a widget token, valid yet without the rights, a 403. A widget token used from a browser
 * must come from its allowed origin, or from the widget page itself (served on the server's own
 * origin, `ownOrigin`, inside the allowed origin's frame).
 */
export async function authenticate(ctx: ParameterizedContext, tokens: TokenService, auth: RouteAuth, ownOrigin: string): Promise<TokenClaims | undefined> {
  if (auth === 'none') return undefined;
  const token = bearerToken(ctx);
  if (!token) throw new AuthenticationError();
  const claims = await tokens.verifyAny(token);
  if (!auth.includes(claims.token_use)) throw claims.token_use === 'widget' ? new AccessDeniedError() : new AuthenticationError();
  const origin = ctx.get('Origin');
  if (claims.token_use === 'widget' && origin && !originMatches(claims.widget.allowed_origin, origin) && !originMatches(ownOrigin, origin)) {
    throw new AccessDeniedError();
  }
  return claims;
}
