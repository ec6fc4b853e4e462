import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { invalidField } from '../../../errors.ts';
import type { EncryptionMapperConfiguration } from '../../types.generated.ts';
import type { Loc } from './mapped-fields.ts';

/** Encrypts a value's text (UTF-8) into the hex Airbyte's EncryptionMapper writes; throws when the value cannot be. */
export type Encrypt = (text: string) => string;

type Mode = NonNullable<EncryptionMapperConfiguration['mode']>;

const BLOCK = 16;
/** Modes OpenSSL pads itself; the stream modes take PKCS5Padding as Java does, the data padded first. */
const BLOCK_MODES: ReadonlySet<Mode> = new Set(['CBC', 'ECB']);
/** Java's ciphers refuse a padding with these: "must be used with NoPadding". */
const NO_PADDING_ONLY: ReadonlySet<Mode> = new Set(['CTR', 'GCM']);

/**
 * RSA as Java's `Cipher.getInstance("RSA")` does it (PKCS#1 v1.5 padding) with the public key Airbyte
 * takes (its DER SubjectPublicKeyInfo in hex); the output in hex. A text longer than the key's
 * modulus less 11 bytes cannot be encrypted.
 */
export function rsaEncrypt(config: EncryptionMapperConfiguration, loc: Loc): Encrypt {
  refuseOthers(config, ['key', 'mode', 'padding'], 'RSA', loc);
  if (config.publicKey === undefined) throw invalidField([...loc, 'publicKey'], 'field required (RSA takes publicKey)', 'value_error.missing');
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({ key: Buffer.from(config.publicKey, 'hex'), format: 'der', type: 'spki' });
  } catch {
    throw invalidField([...loc, 'publicKey'], 'not a public key: its DER SubjectPublicKeyInfo in hex is expected', 'value_error.rsa_public_key');
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw invalidField([...loc, 'publicKey'], `a ${key.asymmetricKeyType} key, not an RSA one`, 'value_error.rsa_public_key');
  }
  return (text) => publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8')).toString('hex');
}

/**
 * AES with the hex key's size (128, 192 or 256 bits), in hex: a random 16-byte IV, then the cipher
 * text (Airbyte's layout), and for GCM the 16-byte tag after it, as Java's GCM writes it. ECB has no
 * IV. PKCS5Padding pads to the block; with NoPadding, CBC and ECB take only whole blocks.
 */
export function aesEncrypt(config: EncryptionMapperConfiguration, loc: Loc): Encrypt {
  refuseOthers(config, ['publicKey'], 'AES', loc);
  for (const field of ['key', 'mode', 'padding'] as const) {
    if (config[field] === undefined) throw invalidField([...loc, field], 'field required (AES takes key, mode and padding)', 'value_error.missing');
  }
  const key = Buffer.from(config.key!, 'hex');
  if (![16, 24, 32].includes(key.length) || config.key!.length % 2 !== 0) {
    throw invalidField([...loc, 'key'], 'an AES key in hex: 32, 48 or 64 hex digits (128, 192 or 256 bits)', 'value_error.aes_key');
  }
  const mode = config.mode!;
  const padded = config.padding === 'PKCS5Padding';
  if (padded && NO_PADDING_ONLY.has(mode)) {
    throw invalidField([...loc, 'padding'], `${mode} takes NoPadding only`, 'value_error.aes_padding');
  }
  const cipherName = `aes-${key.length * 8}-${mode.toLowerCase()}`;
  return (text) => {
    const iv = mode === 'ECB' ? null : randomBytes(BLOCK);
    const cipher = createCipheriv(cipherName, key, iv);
    if (BLOCK_MODES.has(mode)) cipher.setAutoPadding(padded);
    const data = Buffer.from(text, 'utf8');
    const input = padded && !BLOCK_MODES.has(mode) ? pkcs5Pad(data) : data;
    const encrypted = [cipher.update(input), cipher.final()];
    const tag = mode === 'GCM' ? [(cipher as unknown as { getAuthTag(): Buffer }).getAuthTag()] : [];
    return Buffer.concat([...(iv ? [iv] : []), ...encrypted, ...tag]).toString('hex');
  };
}

function pkcs5Pad(data: Buffer): Buffer {
  const pad = BLOCK - (data.length % BLOCK);
  return Buffer.concat([data, Buffer.alloc(pad, pad)]);
}

/** Each algorithm's configuration has its own fields: another's given is refused, not ignored. */
function refuseOthers(config: EncryptionMapperConfiguration, others: Array<keyof EncryptionMapperConfiguration>, algorithm: string, loc: Loc): void {
  const extra = others.find((field) => config[field] !== undefined);
  if (extra) throw invalidField([...loc, extra], `extra fields not permitted (${algorithm} does not take ${extra})`, 'value_error.extra');
}
