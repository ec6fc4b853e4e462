import { invalidField } from '../../../errors.ts';
import type { RowFilteringCondition, RowFilteringMapperConfiguration } from '../../types.generated.ts';
import { fieldText } from './field-text.ts';
import type { Loc, MappedFields } from './mapped-fields.ts';
import type { MapperKind } from './record-step.ts';

type Predicate = (record: Record<string, unknown>) => boolean;

/** `row-filtering`: keeps the records its condition holds for, the others are not written (nor counted). */
export const rowFiltering: MapperKind<RowFilteringMapperConfiguration> = {
  plan({ conditions }, fields, loc) {
    const holds = predicateOf(conditions, fields, [...loc, 'conditions']);
    return (record) => holds(record);
  },
};

/**
 * EQUAL: the record has the field and its text (fieldText) is the comparison value, compared as
 * text whatever the field's type, as Airbyte compares. NOT: none of its conditions holds.
 */
function predicateOf(condition: RowFilteringCondition, fields: MappedFields, loc: Loc): Predicate {
  const { type, fieldName, comparisonValue, conditions } = condition;
  const needs = type === 'EQUAL' ? ['fieldName', 'comparisonValue'] : ['conditions'];
  for (const [name, value] of Object.entries({ fieldName, comparisonValue, conditions })) {
    const wanted = needs.includes(name);
    if (wanted && value === undefined) throw invalidField([...loc, name], `field required (${type} takes ${needs.join(' and ')})`, 'value_error.missing');
    if (!wanted && value !== undefined)
      throw invalidField([...loc, name], `extra fields not permitted (${type} takes ${needs.join(' and ')})`, 'value_error.extra');
  }
  if (type === 'NOT') {
    const inner = conditions!.map((nested, i) => predicateOf(nested, fields, [...loc, 'conditions', i]));
    return (record) => !inner.some((holds) => holds(record));
  }
  fields.require(fieldName!, [...loc, 'fieldName']);
  return (record) => Object.hasOwn(record, fieldName!) && fieldText(record[fieldName!]) === comparisonValue;
}
