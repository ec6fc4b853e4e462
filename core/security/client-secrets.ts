import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { DataKeyring } from './data-keyring.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const HMAC_PURPOSE = 'client-secret-hmac';

/** 'valid-rehash': right, but stored in an older form (scrypt, or under a data key no longer active): store `hash()` anew. */
export type SecretVerdict = 'valid' | 'valid-rehash' | 'invalid';

/**
 * Hashes of application client secrets. A secret is 256 random bits, so a keyed hash (HMAC-SHA-256
 * under a key derived from a data key) resists a stolen table as well as a slow hash would, and costs
 * microseconds: a wrong secret can't make the server do expensive work. Stored as
 * `hmac-sha256$<data key id>$<base64>`; hashes of older installs (`scrypt$<salt>$<hash>`) and hashes
 * under a data key no longer active still verify, answered 'valid-rehash'.
 */
export class ClientSecrets {
  /** Verified in place of an unknown client's hash, so known and unknown client ids cost the same. */
  readonly decoyHash: string;
  private readonly macKeys = new Map<string, Buffer>();

  constructor(private readonly keyring: DataKeyring) {
    this.decoyHash = this.hash(randomBytes(32).toString('base64url'));
  }

  hash(secret: string): string {
    const keyId = this.keyring.activeKeyId;
    return `hmac-sha256$${keyId}$${this.mac(secret, keyId).toString('base64')}`;
  }

  async verify(secret: string, stored: string): Promise<SecretVerdict> {
    const [scheme, keyOrSalt, hash] = stored.split('$');
    if (!keyOrSalt || !hash) return 'invalid';
    const expected = Buffer.from(hash, 'base64');
    if (scheme === 'hmac-sha256') {
      if (!safeEqual(this.mac(secret, keyOrSalt), expected)) return 'invalid';
      return keyOrSalt === this.keyring.activeKeyId ? 'valid' : 'valid-rehash';
    }
    if (scheme === 'scrypt')
      return safeEqual(await scryptAsync(secret, Buffer.from(keyOrSalt, 'base64'), expected.length), expected) ? 'valid-rehash' : 'invalid';
    return 'invalid';
  }

  private mac(secret: string, keyId: string): Buffer {
    let key = this.macKeys.get(keyId);
    if (!key) {
      key = this.keyring.deriveKey(HMAC_PURPOSE, keyId);
      this.macKeys.set(keyId, key);
    }
    return createHmac('sha256', key).update(secret).digest();
  }
}

function safeEqual(actual: Buffer, expected: Buffer): boolean {
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
