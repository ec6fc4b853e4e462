import type { IncomingMessage } from 'node:http';
import { authError, type DriveError } from './errors.ts';
import type { DriveOAuth } from './oauth.ts';

/**
 * Only `Authorization: Bearer <token>` authenticates. Drive also accepts access_token / oauth_token
 * query parameters; the sandbox deliberately does not, so clients are held to the header. The static
 * token always does; with `oauth`, so does a live OAuth-issued access token.
 */
export function checkAuth(req: IncomingMessage, token: string, oauth?: DriveOAuth): DriveError | undefined {
  const header = req.headers.authorization?.trim();
  if (!header) return authError(true);
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (m && (m[1] === token || oauth?.accepts(m[1]!))) return undefined;
  return authError(false);
}
