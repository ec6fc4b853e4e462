import { createHash } from 'node:crypto';

/** The namespace of Plugboard's name-based definition ids (any fixed UUID would do; changing it changes every id). */
const PLUGBOARD_NAMESPACE = Buffer.from('5d1a4c5e8f3b4b6e9a2c7e0f1b3d5a79', 'hex');

/**
 * A stable UUID for a name (RFC 9562 version 5: SHA-1 of a namespace and the name), so a connector
 * type Airbyte has no definition id for gets the same one on every server and every start.
 */
export function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(PLUGBOARD_NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
