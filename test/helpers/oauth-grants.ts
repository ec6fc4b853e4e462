import { createHash, randomBytes } from 'node:crypto';
import type { OAuthCredentials } from '../../core/sdk/index.ts';
import { exchangeCode } from '../../core/oauth/token-endpoint.ts';
import { oauth } from '../../testing/index.ts';

/** A sandbox that speaks its provider's OAuth: where its consent page and token endpoint are. */
export interface OAuthProvider {
  authorizeUrl: string;
  tokenUrl: string;
}

export const TEST_CLIENT = { client_id: 'plugboard-test-client', client_secret: 'test-client-secret' };
const REDIRECT = 'http://app.test/oauth/callback';

/**
 * An end user's grant, got as an app would: the consent page allowed (with PKCE), the code exchanged.
 * Answers the credentials an app passes in-process, with the sandbox's token URL.
 */
export async function grantedCredentials(
  provider: OAuthProvider,
  scope = 'read',
): Promise<Required<Omit<OAuthCredentials, 'expires_at'>> & { expires_at?: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(provider.authorizeUrl);
  authorize.search = new URLSearchParams({
    client_id: TEST_CLIENT.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    state: 'test-state',
    access_type: 'offline',
    prompt: 'consent',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const back = await oauth.consentTo(authorize.href, 'allow');
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`consent gave no code: ${back.href}`);
  const endpoint = { url: provider.tokenUrl, clientId: TEST_CLIENT.client_id, clientSecret: TEST_CLIENT.client_secret, revokedCodes: [] };
  const granted = await exchangeCode(endpoint, { code, redirectUri: REDIRECT, codeVerifier: verifier });
  if (!granted.refreshToken) throw new Error('the grant carries no refresh token');
  return {
    access_token: granted.accessToken,
    refresh_token: granted.refreshToken,
    ...(granted.expiresAt === undefined ? {} : { expires_at: new Date(granted.expiresAt).toISOString() }),
    ...TEST_CLIENT,
    token_url: provider.tokenUrl,
  };
}
