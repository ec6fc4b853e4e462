import { createHash } from 'node:crypto';

/** RFC 7636: the two transformations a code challenge may use. */
export type PkceMethod = 'S256' | 'plain';

export interface PkceChallenge {
  challenge: string;
  method: PkceMethod;
}

/** The method named by `code_challenge_method`; absent means `plain` (RFC 7636 §4.3), anything else is refused (undefined). */
export function pkceMethod(value: string | null): PkceMethod | undefined {
  if (value === null || value === '' || value === 'plain') return 'plain';
  return value === 'S256' ? 'S256' : undefined;
}

/** Whether `verifier` produces the challenge: S256 is BASE64URL(SHA-256(verifier)) without padding. */
export function pkceVerifies(pkce: PkceChallenge, verifier: string): boolean {
  const derived = pkce.method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  return derived === pkce.challenge;
}
