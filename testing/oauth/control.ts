import type { OAuthAuthority } from './authority.ts';
import type { OAuthStats } from './stats.ts';

export const OAUTH_CONTROL_PATH = '/_sandbox/oauth';

export type OAuthControlAnswer =
  | { kind: 'stats'; stats: OAuthStats }
  | { kind: 'done' }
  | { kind: 'method_not_allowed'; allow: string }
  | { kind: 'not_found' };

export function isOAuthControlPath(path: string): boolean {
  return path === OAUTH_CONTROL_PATH || path.startsWith(`${OAUTH_CONTROL_PATH}/`);
}

/**
 * The control endpoints, for a caller the sandbox has already authenticated with its static token:
 * GET /_sandbox/oauth (stats), POST /_sandbox/oauth/expire, POST /_sandbox/oauth/revoke. Each sandbox
 * writes the answer in its own API's style.
 */
export function oauthControl(authority: OAuthAuthority, httpMethod: string | undefined, path: string): OAuthControlAnswer {
  if (path === OAUTH_CONTROL_PATH) return httpMethod === 'GET' ? { kind: 'stats', stats: authority.stats() } : { kind: 'method_not_allowed', allow: 'GET' };
  const action = path.slice(OAUTH_CONTROL_PATH.length + 1);
  if (action !== 'expire' && action !== 'revoke') return { kind: 'not_found' };
  if (httpMethod !== 'POST') return { kind: 'method_not_allowed', allow: 'POST' };
  if (action === 'expire') authority.book.expireAccessTokens();
  else authority.book.revokeGrants();
  return { kind: 'done' };
}
