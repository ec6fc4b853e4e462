import type { EncryptionMapperConfiguration } from '../../types.generated.ts';
import { fieldText } from './field-text.ts';
import { aesEncrypt, rsaEncrypt } from './encryption-ciphers.ts';
import type { MapperKind } from './record-step.ts';

/**
 * `encryption`: the field replaced by `<field><suffix>`, its text encrypted in hex (RSA or AES). A
 * value that cannot be encrypted (too long for the RSA key, not whole blocks without padding) is
 * left out, written as NULL, as Airbyte nulls it. Encrypted values differ at each write, so a primary
 * key field cannot be encrypted where rows are upserted by it.
 */
export const encryption: MapperKind<EncryptionMapperConfiguration> = {
  plan(config, fields, loc) {
    const encrypt = config.algorithm === 'RSA' ? rsaEncrypt(config, loc) : aesEncrypt(config, loc);
    const { targetField } = config;
    const output = `${targetField}${config.fieldNameSuffix}`;
    fields.require(targetField, [...loc, 'targetField']);
    fields.unkey(targetField, 'encrypt', [...loc, 'targetField']);
    fields.redefine(targetField, output, 'string', [...loc, 'fieldNameSuffix']);
    return (record, nulled) => {
      if (!Object.hasOwn(record, targetField)) return true;
      const text = fieldText(record[targetField]);
      delete record[targetField];
      try {
        record[output] = encrypt(text);
      } catch {
        delete record[output];
        nulled(output);
      }
      return true;
    };
  },
};
