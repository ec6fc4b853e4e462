import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EncryptedValue } from '../stores/types.ts';

interface DataKey {
  id: string;
  key: Buffer;
}

/**
 * AES-256-GCM encryption of secrets at rest (connector credentials, signing keys). Every ciphertext
 * names the key that made it, so a new key can take over encryption while old ciphertexts still open.
 */
export class DataKeyring {
  private readonly keys: Map<string, Buffer>;

  constructor(
    keys: DataKey[],
    private readonly activeId: string = keys[0]?.id ?? '',
  ) {
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
    const active = this.keys.get(activeId);
    if (!active || active.length !== 32) throw new Error('the active data key must exist and be 32 bytes');
  }

  encrypt(plaintext: string): EncryptedValue {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.activeId)!, iv);
    cipher.setAAD(Buffer.from(this.activeId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { key_id: this.activeId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  decrypt(value: EncryptedValue): string {
    const key = this.keys.get(value.key_id);
    if (!key) throw new Error(`data key "${value.key_id}" is not configured`);
    const raw = Buffer.from(value.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(value.key_id));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * The deployment's data keys: `PLUGBOARD_DATA_KEYS` (`id:base64key,...`, the first encrypts), or else
 * a key file created on first start in the data directory, so the embedded install needs no setup.
 * Instances sharing a PostgreSQL database must share the same keys (set the variable on each).
 */
export function loadDataKeyring(env: NodeJS.ProcessEnv, dataDir: string): DataKeyring {
  const configured = env.PLUGBOARD_DATA_KEYS;
  if (configured) return new DataKeyring(parseKeys(configured));
  const file = join(dataDir, 'data-keys.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const key = { id: `k${Date.now().toString(36)}`, key: randomBytes(32).toString('base64') };
    writeFileSync(file, JSON.stringify({ keys: [key] }, null, 2), { mode: 0o600, flag: 'wx' });
  }
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { keys: Array<{ id: string; key: string }> };
  return new DataKeyring(stored.keys.map((k) => ({ id: k.id, key: Buffer.from(k.key, 'base64') })));
}

function parseKeys(value: string): DataKey[] {
  return value.split(',').map((entry) => {
    const [id, key] = entry.trim().split(':');
    if (!id || !key) throw new Error('PLUGBOARD_DATA_KEYS must look like "<id>:<base64 32-byte key>,..."');
    return { id, key: Buffer.from(key, 'base64') };
  });
}
