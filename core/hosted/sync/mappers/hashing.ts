import { createHash, getHashes } from 'node:crypto';
import { invalidField } from '../../../errors.ts';
import type { HashingMapperConfiguration } from '../../types.generated.ts';
import { fieldText } from './field-text.ts';
import type { MapperKind } from './record-step.ts';

/** The spec's method names as OpenSSL names the digests. */
const DIGESTS: Record<HashingMapperConfiguration['method'], string> = {
  MD2: 'md2',
  MD5: 'md5',
  'SHA-1': 'sha1',
  'SHA-224': 'sha224',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

/** `hashing`: the field replaced by `<field><suffix>`, the lowercase hex digest of its text (UTF-8), as Airbyte's HashingMapper writes it. */
export const hashing: MapperKind<HashingMapperConfiguration> = {
  plan({ targetField, method, fieldNameSuffix }, fields, loc) {
    const digest = DIGESTS[method];
    // OpenSSL 3 leaves MD2 out: a mapper that cannot hash is refused, never skipped.
    if (!getHashes().includes(digest)) {
      throw invalidField(
        [...loc, 'method'],
        `${method} is not available on this server (OpenSSL ${process.versions.openssl} has no ${digest}): choose another method`,
        'value_error.hashing_method_unavailable',
      );
    }
    fields.require(targetField, [...loc, 'targetField']);
    const output = `${targetField}${fieldNameSuffix}`;
    fields.redefine(targetField, output, 'string', [...loc, 'fieldNameSuffix']);
    return (record) => {
      if (!Object.hasOwn(record, targetField)) return true;
      const hashed = createHash(digest).update(fieldText(record[targetField]), 'utf8').digest('hex');
      delete record[targetField];
      record[output] = hashed;
      return true;
    };
  },
};
