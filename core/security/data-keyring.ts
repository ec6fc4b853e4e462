import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EncryptedValue } from '../stores/types.ts';
import { PlugboardError } from '../errors.ts';
import { narrowPrivateFile, preparePrivateDirectory } from './data-directory.ts';
import { KeyConfigurationError } from './key-configuration-error.ts';

interface DataKey {
  id: string;
  key: Buffer;
}

const KEY_BYTES = 32;

/** A value that the configured data keys cannot open. Carries the key id only (never key material). */
export class UndecryptableValueError extends Error {
  constructor(
    readonly keyId: string,
    readonly reason: 'unknown_key' | 'wrong_key',
  ) {
    super(
      reason === 'unknown_key'
        ? `data key "${keyId}" is not configured`
        : `data key "${keyId}" does not open this value: the key configured under that id is not the one that encrypted it`,
    );
    this.name = 'UndecryptableValueError';
  }
}

/**
 * The 503 `credentials_unavailable` for a stored secret this server's keys cannot open (`what`: the
 * application's secret, the connector's stored credentials): the operator can act on the key id.
 */
export function credentialsUnavailable(what: string, error: UndecryptableValueError): PlugboardError {
  return new PlugboardError(
    503,
    `This server cannot ${what} (data key "${error.keyId}" is not among its configured data keys); the operator must restore that key`,
    'credentials_unavailable',
  );
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
    if (!active || active.length !== KEY_BYTES) throw new KeyConfigurationError('the active data key must exist and be 32 bytes');
  }

  /** The id of the key that encrypts (and derives new keys). */
  get activeKeyId(): string {
    return this.activeId;
  }

  /**
   * A key for one purpose, derived from a data key (HKDF-SHA-256), so no data key serves two jobs and
   * every instance holding the data keys derives the same one. A key id not configured throws.
   */
  deriveKey(purpose: string, keyId: string = this.activeId): Buffer {
    const key = this.keys.get(keyId);
    if (!key) throw new UndecryptableValueError(keyId, 'unknown_key');
    return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `plugboard/${purpose}`, KEY_BYTES));
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
    if (!key) throw new UndecryptableValueError(value.key_id, 'unknown_key');
    const raw = Buffer.from(value.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(value.key_id));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      // GCM's authentication failed: same id, other key material (or a damaged ciphertext).
      throw new UndecryptableValueError(value.key_id, 'wrong_key');
    }
  }
}

export interface KeyringOptions {
  /**
   * The store is shared with other instances (PostgreSQL): the keys must come from PLUGBOARD_DATA_KEYS,
   * since a key generated here would encrypt what no other instance can open.
   */
  shared: boolean;
}

/**
 * The deployment's data keys: `PLUGBOARD_DATA_KEYS` (`id:base64key,...`, the first encrypts), or else,
 * for an embedded (SQLite) install, a key file created on first start in the data directory, so that
 * install needs no setup. A shared store without the variable is refused, before anything is written.
 */
export function loadDataKeyring(env: NodeJS.ProcessEnv, dataDir: string, options: KeyringOptions): DataKeyring {
  const configured = env.PLUGBOARD_DATA_KEYS;
  if (configured) return new DataKeyring(parseKeys(configured));
  const file = join(dataDir, 'data-keys.json');
  if (options.shared) {
    const hint = existsSync(file) ? ` An instance that ran without it left its generated key in ${file}: put that key in PLUGBOARD_DATA_KEYS.` : '';
    throw new KeyConfigurationError(
      'DATABASE_URL is set, so PLUGBOARD_DATA_KEYS must be set too, with the same value on every instance sharing the database ' +
        `("<id>:<base64 32-byte key>,...", the first one encrypts); refusing to start with a key no other instance would hold.${hint}`,
    );
  }
  // Private to this user (0700, 0600), however an older install left them.
  preparePrivateDirectory(dataDir);
  if (existsSync(file)) narrowPrivateFile(file);
  else createKeyFile(file);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { keys: Array<{ id: string; key: string }> };
  return new DataKeyring(stored.keys.map((k) => ({ id: k.id, key: Buffer.from(k.key, 'base64') })));
}

/**
 * Writes the key beside the final name, then links it into place: link fails if the file exists, so of
 * two processes starting together on an empty directory one key wins, and no reader sees a half-written file.
 */
function createKeyFile(file: string): void {
  const key = { id: `k${Date.now().toString(36)}`, key: randomBytes(KEY_BYTES).toString('base64') };
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, JSON.stringify({ keys: [key] }, null, 2), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function parseKeys(value: string): DataKey[] {
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry, index) => {
      const [id, key, extra] = entry.split(':');
      if (!id || !key || extra !== undefined)
        throw new KeyConfigurationError(`PLUGBOARD_DATA_KEYS entry ${index + 1} must look like "<id>:<base64 32-byte key>"`);
      // Ids are written into stored values (`hmac-sha256$<id>$...`): only characters no format uses as a separator.
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id))
        throw new KeyConfigurationError(`PLUGBOARD_DATA_KEYS entry ${index + 1}: a key id is 1-64 letters, digits, "_", "." or "-"`);
      const bytes = Buffer.from(key, 'base64');
      if (bytes.length !== KEY_BYTES)
        throw new KeyConfigurationError(`PLUGBOARD_DATA_KEYS: key "${id}" must be 32 bytes in base64 (it decodes to ${bytes.length})`);
      return { id, key: bytes };
    });
  if (keys.length === 0) throw new KeyConfigurationError('PLUGBOARD_DATA_KEYS holds no key');
  const ids = keys.map((k) => k.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new KeyConfigurationError(`PLUGBOARD_DATA_KEYS names key "${repeated}" twice`);
  return keys;
}
