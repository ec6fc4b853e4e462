import { createHash } from 'node:crypto';
import type { OAuth2Settings } from '../../sdk/index.ts';
import { randomToken } from './flow-binding.ts';

/** What goes into a consent URL besides the provider's declared settings. */
export interface ConsentRequest {
  /** The deployment's authorize URL of the type (the operator's, else the declared one). */
  authorizeUrl: string;
  clientId: string;
  /** Plugboard's callback, where the provider sends the browser back with the code. */
  callbackUrl: string;
  state: string;
  /** The caller's scopes; default the connector's declared ones. */
  scopes?: string[];
  /** PKCE's S256 challenge, for a provider that takes PKCE. */
  codeChallenge?: string;
}

/**
 * The provider's consent page for one authorization-code flow: the declared extra parameters first
 * (Google's `access_type=offline`), then the flow's own, which they cannot override. Scopes are
 * joined by the provider's separator (Slack a comma, Google a space); none, no `scope` at all.
 */
export function consentUrl(settings: OAuth2Settings, request: ConsentRequest): string {
  const url = new URL(request.authorizeUrl);
  for (const [name, value] of Object.entries(settings.authorizeParams ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('redirect_uri', request.callbackUrl);
  url.searchParams.set('response_type', 'code');
  const scopes = request.scopes ?? settings.scopes;
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(settings.scopeSeparator ?? ' '));
  else url.searchParams.delete('scope');
  url.searchParams.set('state', request.state);
  if (request.codeChallenge) {
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.href;
}

/** A PKCE pair (RFC 7636): a random verifier (43 characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomToken();
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
