import type { IncomingMessage } from 'node:http';
import { authError, type DriveError } from './errors.ts';

/**
 * Only `Authorization: Bearer <token>` authenticates. Drive also accepts access_token / oauth_token
 * query parameters; the sandbox deliberately does not, so clients are held to the header.
 */
export function checkAuth(req: IncomingMessage, token: string): DriveError | undefined {
  const header = req.headers.authorization?.trim();
  if (!header) return authError(true);
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m || m[1] !== token) return authError(false);
  return undefined;
}
