import type { IncomingMessage, ServerResponse } from 'node:http';
import { type IssuedTokens, clientCredentials, pkceVerifies, readForm, sendTokenJson, serveAuthorize } from '../../../testing/oauth/index.ts';
import { AUTHORIZE_PATH, type DriveOAuth, REVOKE_PATH, TOKEN_PATH } from './oauth.ts';

/**
 * Google's token side (oauth2.googleapis.com): /token exchanges codes and refresh tokens (no
 * rotation), /revoke ends a grant. Failures are `{error, error_description}` with Google's statuses
 * and descriptions.
 */

class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function isOAuthEndpoint(path: string): boolean {
  return path === AUTHORIZE_PATH || path === TOKEN_PATH || path === REVOKE_PATH;
}

export async function serveOAuthEndpoint(req: IncomingMessage, res: ServerResponse, url: URL, oauth: DriveOAuth): Promise<void> {
  if (url.pathname === AUTHORIZE_PATH) return serveAuthorize(req, res, url, oauth.authority, oauth.authorize);
  const allowed = url.pathname === TOKEN_PATH ? ['POST'] : ['GET', 'POST'];
  if (!allowed.includes(req.method ?? '')) {
    req.resume();
    return sendTokenJson(res, 405, { error: 'invalid_request', error_description: `Use ${allowed.join(' or ')}.` }, { allow: allowed.join(', ') });
  }
  const form = await readForm(req);
  try {
    if (form === null) throw new TokenError(413, 'invalid_request', 'Request body too large.');
    if (url.pathname === TOKEN_PATH) return sendTokenJson(res, 200, token(oauth, form, req.headers.authorization));
    revoke(oauth, url.searchParams.get('token') ?? form.get('token'));
    sendTokenJson(res, 200, {});
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    oauth.authority.refuse(err.error);
    sendTokenJson(res, err.status, { error: err.error, error_description: err.description });
  }
}

function token(oauth: DriveOAuth, form: URLSearchParams, authorization: string | undefined): Record<string, unknown> {
  const grantType = form.get('grant_type');
  if (!grantType) throw new TokenError(400, 'invalid_request', 'Required parameter is missing: grant_type');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
    throw new TokenError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  const client = clientCredentials(authorization, form);
  if (!client.id) throw new TokenError(400, 'invalid_request', 'Could not determine client ID from request.');
  if (!client.secret) throw new TokenError(400, 'invalid_request', 'client_secret is missing.');
  const check = oauth.authority.clients.check(client.id, client.secret);
  if (check === 'unknown_client') throw new TokenError(401, 'invalid_client', 'The OAuth client was not found.');
  if (check === 'bad_secret') throw new TokenError(401, 'invalid_client', 'Unauthorized');
  if (grantType === 'refresh_token') {
    const refreshToken = form.get('refresh_token');
    if (!refreshToken) throw new TokenError(400, 'invalid_request', 'Missing required parameter: refresh_token');
    const outcome = oauth.authority.book.refreshGrant(refreshToken, client.id, false);
    if (outcome === 'other_client') throw new TokenError(400, 'unauthorized_client', 'Unauthorized');
    if (typeof outcome === 'string') throw new TokenError(400, 'invalid_grant', 'Token has been expired or revoked.');
    oauth.authority.granted('refresh_token');
    // Google keeps the refresh token: a refresh answers none.
    return { ...answer(outcome), refresh_token: undefined };
  }
  const code = form.get('code');
  if (!code) throw new TokenError(400, 'invalid_request', 'Missing required parameter: code');
  const redirectUri = form.get('redirect_uri');
  if (!redirectUri) throw new TokenError(400, 'invalid_request', 'Missing parameter: redirect_uri');
  const pending = oauth.authority.book.takeCode(code);
  if (!pending || pending.clientId !== client.id || pending.redirectUri !== redirectUri) throw new TokenError(400, 'invalid_grant', 'Bad Request');
  const verifier = form.get('code_verifier');
  if (pending.pkce && !verifier) throw new TokenError(400, 'invalid_grant', 'Missing code verifier.');
  if (pending.pkce && !pkceVerifies(pending.pkce, verifier!)) throw new TokenError(400, 'invalid_grant', 'Invalid code verifier.');
  if (!pending.pkce && verifier) throw new TokenError(400, 'invalid_grant', 'code_verifier or verifier is not needed.');
  oauth.authority.granted('authorization_code');
  return answer(oauth.authority.book.open(pending));
}

function answer(issued: IssuedTokens): Record<string, unknown> {
  return {
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    refresh_token: issued.refreshToken,
    scope: issued.grant.scope,
    token_type: 'Bearer',
  };
}

/** A refresh token or a live access token; either ends the whole grant, as Google documents. */
function revoke(oauth: DriveOAuth, token: string | null): void {
  if (!token) throw new TokenError(400, 'invalid_request', 'Missing required parameter: token');
  if (!oauth.authority.book.revoke(token)) throw new TokenError(400, 'invalid_token', 'Token expired or revoked');
}
