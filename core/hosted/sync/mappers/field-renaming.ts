import type { FieldRenamingMapperConfiguration } from '../../types.generated.ts';
import type { MapperKind } from './record-step.ts';

/** `field-renaming`: the field under its new name (the primary key following it, as in Airbyte). */
export const fieldRenaming: MapperKind<FieldRenamingMapperConfiguration> = {
  plan({ originalFieldName, newFieldName }, fields, loc) {
    fields.require(originalFieldName, [...loc, 'originalFieldName']);
    fields.redefine(originalFieldName, newFieldName, undefined, [...loc, 'newFieldName']);
    return (record) => {
      if (newFieldName === originalFieldName || !Object.hasOwn(record, originalFieldName)) return true;
      record[newFieldName] = record[originalFieldName];
      delete record[originalFieldName];
      return true;
    };
  },
};
