import { createDecipheriv, createHash, generateKeyPairSync, getHashes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.ts';
import type { ColumnSpec } from '../core/hosted/sync/destinations/destination.ts';
import { type StreamMapper, streamMapping } from '../core/hosted/sync/mappers/stream-mapping.ts';
import type { SelectedStream } from '../core/hosted/sync/sync-target.ts';
import { rsaDecrypt } from './helpers/rsa-decrypt.ts';

/**
 * The mappers module on its own: what the selected fields and each of Airbyte's mapper types make of
 * a stream's table and records (hashes checked against node's crypto, encrypted values decrypted with
 * the keys), and the configurations refused, each at its place.
 */

const COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'string' },
  { name: 'ts', type: 'string' },
  { name: 'email', type: 'string' },
  { name: 'age', type: 'integer' },
  { name: 'profile', type: 'json' },
];
const STREAM = { name: 'people', columns: COLUMNS, primaryKey: ['id'], cursorField: 'ts' };
const RECORD = { id: 'u1', ts: '100.5', email: 'ann@example.com', age: 42, profile: { city: 'Oslo' }, extra: 'not a column' };

let ids = 0;
const mapper = (type: StreamMapper['type'], mapperConfiguration: Record<string, unknown>) => ({ id: `m${++ids}`, type, mapperConfiguration });
const mapping = (mappers: ReturnType<typeof mapper>[], options: Partial<SelectedStream> = {}) =>
  streamMapping(STREAM, { syncMode: 'full_refresh_overwrite', mappers, ...options }, ['mappers']);
const columns = (result: ReturnType<typeof mapping>) => result.table.columns.map((column) => `${column.name}:${column.type}`);

/** The issue a configuration is refused with: `loc` joined, `type`, `msg`. */
function refusal(mappers: ReturnType<typeof mapper>[], options: Partial<SelectedStream> = {}): [string, string, string] {
  try {
    mapping(mappers, options);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const [issue] = error.issues;
    return [issue!.loc.join('.'), issue!.type, issue!.msg];
  }
  throw new Error('not refused');
}

function aesDecrypt(mode: string, key: Buffer, hex: string, padded: boolean): string {
  const bytes = Buffer.from(hex, 'hex');
  const iv = mode === 'ecb' ? null : bytes.subarray(0, 16);
  const body = bytes.subarray(iv ? 16 : 0, mode === 'gcm' ? -16 : undefined);
  const decipher = createDecipheriv(`aes-${key.length * 8}-${mode}`, key, iv);
  if (mode === 'gcm') (decipher as unknown as { setAuthTag(tag: Buffer): void }).setAuthTag(bytes.subarray(-16));
  if (mode === 'cbc' || mode === 'ecb') decipher.setAutoPadding(padded);
  let plain = Buffer.concat([decipher.update(body), decipher.final()]);
  if (padded && !['cbc', 'ecb'].includes(mode)) plain = plain.subarray(0, plain.length - plain[plain.length - 1]!);
  return plain.toString('utf8');
}

describe('selected fields', () => {
  it('keeps the selected top-level fields, the primary key and cursor whatever the selection, and drops the rest from records', () => {
    const selected = mapping([], { selectedFields: ['email'] });
    expect(columns(selected)).toEqual(['id:string', 'ts:string', 'email:string']);
    expect(selected.table.primaryKey).toEqual(['id']);
    expect(selected.map({ ...RECORD })).toEqual({ id: 'u1', ts: '100.5', email: 'ann@example.com' });
    expect(selected.map({ id: 'u2' })).toEqual({ id: 'u2' });
  });

  it('hands records on as they are when nothing is selected nor mapped', () => {
    const record = { ...RECORD };
    expect(mapping([]).map(record)).toBe(record);
  });
});

describe('hashing', () => {
  const methods = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-224': 'sha224', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
  it.each(Object.entries(methods))('%s replaces the field by <field><suffix>, the hex digest of its text', (method, digest) => {
    const hashed = mapping([mapper('hashing', { targetField: 'email', method, fieldNameSuffix: '_hashed' })]);
    expect(columns(hashed)).toContain('email_hashed:string');
    expect(columns(hashed)).not.toContain('email:string');
    const out = hashed.map({ ...RECORD })!;
    expect(out.email_hashed).toBe(createHash(digest).update('ann@example.com').digest('hex'));
    expect(out).not.toHaveProperty('email');
  });

  it('hashes a number, a null and an object by their JSON text; a key field keeps keying rows under its new name', () => {
    const hashed = mapping(
      [
        mapper('hashing', { targetField: 'age', method: 'SHA-256', fieldNameSuffix: '_h' }),
        mapper('hashing', { targetField: 'profile', method: 'MD5', fieldNameSuffix: '' }),
        mapper('hashing', { targetField: 'id', method: 'SHA-256', fieldNameSuffix: '_h' }),
      ],
      { syncMode: 'incremental_deduped_history' },
    );
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(hashed.map({ ...RECORD, age: null })).toMatchObject({ age_h: sha('null'), id_h: sha('u1') });
    expect(hashed.map({ ...RECORD })).toMatchObject({ age_h: sha('42'), profile: createHash('md5').update('{"city":"Oslo"}').digest('hex') });
    expect(hashed.table.primaryKey).toEqual(['id_h']);
    expect(columns(hashed)).toEqual(['id_h:string', 'ts:string', 'email:string', 'age_h:string', 'profile:string']);
  });

  it.skipIf(getHashes().includes('md2'))('refuses MD2 where OpenSSL has no MD2, rather than skip it', () => {
    const [loc, type, msg] = refusal([mapper('hashing', { targetField: 'email', method: 'MD2', fieldNameSuffix: '_h' })]);
    expect([loc, type]).toEqual(['mappers.0.mapperConfiguration.method', 'value_error.hashing_method_unavailable']);
    expect(msg).toContain('MD2 is not available');
  });
});

describe('field renaming and filtering', () => {
  it('renames a field (the key following it) and leaves a filtered one out', () => {
    const mapped = mapping(
      [
        mapper('field-renaming', { originalFieldName: 'id', newFieldName: 'user_id' }),
        mapper('field-filtering', { targetField: 'profile' }),
        mapper('field-renaming', { originalFieldName: 'user_id', newFieldName: 'uid' }),
      ],
      { syncMode: 'incremental_deduped_history' },
    );
    expect(columns(mapped)).toEqual(['uid:string', 'ts:string', 'email:string', 'age:integer']);
    expect(mapped.table.primaryKey).toEqual(['uid']);
    expect(mapped.map({ ...RECORD })).toEqual({ uid: 'u1', ts: '100.5', email: 'ann@example.com', age: 42 });
  });

  it('in full refresh, a key field filtered out leaves the table without a primary key; incrementally it is refused', () => {
    expect(mapping([mapper('field-filtering', { targetField: 'id' })]).table.primaryKey).toEqual([]);
    expect(refusal([mapper('field-filtering', { targetField: 'id' })], { syncMode: 'incremental_append' }).slice(0, 2)).toEqual([
      'mappers.0.mapperConfiguration.targetField',
      'value_error.mapper_primary_key',
    ]);
  });
});

describe('row filtering', () => {
  it('keeps the records whose field has the text given (EQUAL), or none of whose conditions hold (NOT)', () => {
    const adults = mapping([mapper('row-filtering', { conditions: { type: 'EQUAL', fieldName: 'age', comparisonValue: '42' } })]);
    expect(adults.map({ ...RECORD })).toMatchObject({ id: 'u1' });
    expect(adults.map({ ...RECORD, age: 41 })).toBeUndefined();
    expect(adults.map({ id: 'u3' })).toBeUndefined();
    const others = mapping([
      mapper('row-filtering', {
        conditions: {
          type: 'NOT',
          conditions: [
            { type: 'EQUAL', fieldName: 'id', comparisonValue: 'u1' },
            { type: 'EQUAL', fieldName: 'id', comparisonValue: 'u2' },
          ],
        },
      }),
    ]);
    expect(['u1', 'u2', 'u3', undefined].map((id) => others.map({ ...RECORD, id }) !== undefined)).toEqual([false, false, true, true]);
  });
});

describe('encryption', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).toString('hex');

  it('RSA: <field><suffix> in hex, decryptable with the private key; a text too long for the key is NULL and noted', () => {
    const encrypted = mapping([mapper('encryption', { algorithm: 'RSA', targetField: 'email', fieldNameSuffix: '_encrypted', publicKey: publicKeyHex })]);
    expect(columns(encrypted)).toContain('email_encrypted:string');
    const out = encrypted.map({ ...RECORD })!;
    expect(out).not.toHaveProperty('email');
    expect(rsaDecrypt(privateKey, out.email_encrypted as string)).toBe('ann@example.com');
    expect(encrypted.map({ ...RECORD, email: 'x'.repeat(200) })).not.toHaveProperty('email_encrypted');
    expect([...encrypted.nulled]).toEqual([['email_encrypted', 1]]);
  });

  const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
  it.each([
    ['CBC', 'PKCS5Padding'],
    ['ECB', 'PKCS5Padding'],
    ['CFB', 'PKCS5Padding'],
    ['OFB', 'NoPadding'],
    ['CTR', 'NoPadding'],
    ['GCM', 'NoPadding'],
  ])('AES %s with %s: the IV, the cipher text (and GCM tag) in hex, decryptable with the key', (mode, padding) => {
    const encrypted = mapping([
      mapper('encryption', { algorithm: 'AES', targetField: 'email', fieldNameSuffix: '_enc', key: key.toString('hex'), mode, padding }),
    ]);
    const hex = encrypted.map({ ...RECORD })!.email_enc as string;
    expect(aesDecrypt(mode.toLowerCase(), key, hex, padding === 'PKCS5Padding')).toBe('ann@example.com');
  });

  it('AES CBC without padding takes whole blocks only: another value is NULL and noted', () => {
    const encrypted = mapping([
      mapper('encryption', {
        algorithm: 'AES',
        targetField: 'id',
        fieldNameSuffix: '_enc',
        key: key.toString('hex').slice(0, 32),
        mode: 'CBC',
        padding: 'NoPadding',
      }),
    ]);
    expect(aesDecrypt('cbc', key.subarray(0, 16), encrypted.map({ id: '0123456789abcdef' })!.id_enc as string, false)).toBe('0123456789abcdef');
    // Left out, and noted in the row's _airbyte_meta as Airbyte's mappers note it.
    expect(encrypted.map({ id: 'u1' })).toEqual({
      _airbyte_meta: { changes: [{ field: 'id_enc', change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' }] },
    });
    expect(encrypted.nulled.get('id_enc')).toBe(1);
    // The full refresh table no longer has its key: an encrypted value differs at each write.
    expect(encrypted.table.primaryKey).toEqual([]);
  });
});

describe('refused configurations', () => {
  const hex = '00112233445566778899aabbccddeeff';
  it.each([
    [[mapper('hashing', { targetField: 'email', method: 'SHA-3', fieldNameSuffix: '_h' })], 'mappers.0.mapperConfiguration.method', 'type_error.enum'],
    [[mapper('hashing', { targetField: 'email', method: 'MD5' })], 'mappers.0.mapperConfiguration.fieldNameSuffix', 'value_error.missing'],
    [
      [mapper('hashing', { targetField: 'nope', method: 'MD5', fieldNameSuffix: '_h' })],
      'mappers.0.mapperConfiguration.targetField',
      'value_error.mapper_field_not_found',
    ],
    [
      [mapper('field-filtering', { targetField: 'email' }), mapper('hashing', { targetField: 'email', method: 'MD5', fieldNameSuffix: '_h' })],
      'mappers.1.mapperConfiguration.targetField',
      'value_error.mapper_field_not_found',
    ],
    [
      [mapper('field-renaming', { originalFieldName: 'email', newFieldName: 'age' })],
      'mappers.0.mapperConfiguration.newFieldName',
      'value_error.mapper_field_exists',
    ],
    [
      [mapper('field-renaming', { originalFieldName: 'email', newFieldName: '_airbyte_meta' })],
      'mappers.0.mapperConfiguration.newFieldName',
      'value_error.mapper_reserved_field',
    ],
    [[mapper('hashing', { targetField: 'email', method: 'MD5', fieldNameSuffix: '', extra: 1 })], 'mappers.0.mapperConfiguration.extra', 'value_error.extra'],
    [
      [mapper('row-filtering', { conditions: { type: 'EQUAL', fieldName: 'id' } })],
      'mappers.0.mapperConfiguration.conditions.comparisonValue',
      'value_error.missing',
    ],
    [[mapper('row-filtering', { conditions: { type: 'NOT', conditions: [] } })], 'mappers.0.mapperConfiguration.conditions.conditions', 'value_error.minItems'],
    [
      [mapper('row-filtering', { conditions: { type: 'NOT', conditions: [{ type: 'EQUAL', fieldName: 'nope', comparisonValue: 'x' }] } })],
      'mappers.0.mapperConfiguration.conditions.conditions.0.fieldName',
      'value_error.mapper_field_not_found',
    ],
    [[mapper('row-filtering', { conditions: { type: 'OR', conditions: [] } })], 'mappers.0.mapperConfiguration.conditions.type', 'type_error.enum'],
    [
      [mapper('encryption', { algorithm: 'RSA', targetField: 'email', fieldNameSuffix: '_e' })],
      'mappers.0.mapperConfiguration.publicKey',
      'value_error.missing',
    ],
    [
      [mapper('encryption', { algorithm: 'RSA', targetField: 'email', fieldNameSuffix: '_e', publicKey: hex })],
      'mappers.0.mapperConfiguration.publicKey',
      'value_error.rsa_public_key',
    ],
    [
      [mapper('encryption', { algorithm: 'RSA', targetField: 'email', fieldNameSuffix: '_e', publicKey: 'zz' })],
      'mappers.0.mapperConfiguration.publicKey',
      'value_error.str.regex',
    ],
    [
      [mapper('encryption', { algorithm: 'AES', targetField: 'email', fieldNameSuffix: '_e', key: hex, mode: 'CBC' })],
      'mappers.0.mapperConfiguration.padding',
      'value_error.missing',
    ],
    [
      [mapper('encryption', { algorithm: 'AES', targetField: 'email', fieldNameSuffix: '_e', key: hex.slice(2), mode: 'CBC', padding: 'NoPadding' })],
      'mappers.0.mapperConfiguration.key',
      'value_error.aes_key',
    ],
    [
      [mapper('encryption', { algorithm: 'AES', targetField: 'email', fieldNameSuffix: '_e', key: hex, mode: 'CTR', padding: 'PKCS5Padding' })],
      'mappers.0.mapperConfiguration.padding',
      'value_error.aes_padding',
    ],
    [
      [mapper('encryption', { algorithm: 'AES', targetField: 'email', fieldNameSuffix: '_e', key: hex, mode: 'CBC', padding: 'NoPadding', publicKey: hex })],
      'mappers.0.mapperConfiguration.publicKey',
      'value_error.extra',
    ],
  ])('%j: at %s (%s)', (mappers, loc, type) => {
    expect(refusal(mappers).slice(0, 2)).toEqual([loc, type]);
  });

  it('refuses encrypting a primary key field where rows are upserted by it', () => {
    const encrypt = mapper('encryption', { algorithm: 'AES', targetField: 'id', fieldNameSuffix: '_e', key: hex, mode: 'CTR', padding: 'NoPadding' });
    const [loc, type, msg] = refusal([encrypt], { syncMode: 'incremental_deduped_history' });
    expect([loc, type]).toEqual(['mappers.0.mapperConfiguration.targetField', 'value_error.mapper_primary_key']);
    expect(msg).toContain('cannot encrypt "id"');
  });
});
