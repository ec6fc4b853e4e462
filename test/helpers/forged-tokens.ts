import type { SeededRandom } from '../../testing/seeded-random.ts';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Authorization headers no server should accept: nothing to parse, the wrong scheme, a JWT that
 * only looks right (alg none, an unknown key id, a valid token's claims with `exp` in the past and
 * its old signature, a valid token with a byte changed).
 */
export function forgedAuthorization(random: SeededRandom, validToken: string): string {
  const [header = '', payload = '', signature = ''] = validToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const forged = [
    'Bearer',
    'Bearer ',
    'Bearer garbage',
    `Bearer ${random.hex(64)}`,
    'Basic dXNlcjpwYXNz',
    validToken,
    `Bearer ${validToken}x`,
    `Bearer ${validToken.slice(0, -2)}`,
    `Bearer ${header}.${base64url({ ...claims, exp: 1_000_000_000 })}.${signature}`,
    `Bearer ${header}.${base64url({ ...claims, token_use: claims.token_use === 'operator' ? 'scoped' : 'operator' })}.${signature}`,
    `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    `Bearer ${base64url({ alg: 'HS256', kid: '../../etc/passwd' })}.${payload}.${signature}`,
    `Bearer ${base64url({ alg: 'RS256', kid: random.hex(8) })}.${base64url({ exp: 'soon', iat: null, sub: [] })}.${signature}`,
    `Bearer a.b.c`,
    `Bearer ...`,
    `Bearer ${'a'.repeat(8_000)}`,
    `Bearer ${validToken}, Bearer ${validToken}`,
  ];
  return random.pick(forged);
}
