import type { FieldFilteringMapperConfiguration } from '../../types.generated.ts';
import type { MapperKind } from './record-step.ts';

/** `field-filtering`: the field left out of the records and the table. */
export const fieldFiltering: MapperKind<FieldFilteringMapperConfiguration> = {
  plan({ targetField }, fields, loc) {
    fields.require(targetField, [...loc, 'targetField']);
    fields.remove(targetField, [...loc, 'targetField']);
    return (record) => {
      delete record[targetField];
      return true;
    };
  },
};
