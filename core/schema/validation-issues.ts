import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../errors.ts';
import { ERROR_MESSAGE_KEYWORD } from './ajv.ts';

/** Turns ajv errors into 422 issues (`loc`, `msg`, `type`), with pydantic-style messages and type names. */
export function toValidationIssues(errors: ErrorObject[], locPrefix: Array<string | number>): ValidationIssue[] {
  return errors.map((error) => {
    const loc = [...locPrefix, ...pointerToPath(error.instancePath)];
    const custom = (error.parentSchema as Record<string, unknown> | undefined)?.[ERROR_MESSAGE_KEYWORD];
    const { msg, type, field } = describe(error);
    return {
      loc: field === undefined ? loc : [...loc, field],
      msg: typeof custom === 'string' && !['required', 'additionalProperties'].includes(error.keyword) ? custom : msg,
      type,
    };
  });
}

function pointerToPath(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function describe(error: ErrorObject): { msg: string; type: string; field?: string } {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { msg: 'field required', type: 'value_error.missing', field: String(p.missingProperty) };
    case 'additionalProperties':
      return { msg: 'extra fields not permitted', type: 'value_error.extra', field: String(p.additionalProperty) };
    case 'type':
      return { msg: `value is not a valid ${String(p.type).replace(/,/g, ' or ')}`, type: `type_error.${typeName(String(p.type))}` };
    case 'maxLength':
      return { msg: `ensure this value has at most ${String(p.limit)} characters`, type: 'value_error.any_str.max_length' };
    case 'minLength':
      return { msg: `ensure this value has at least ${String(p.limit)} characters`, type: 'value_error.any_str.min_length' };
    case 'maximum':
      return { msg: `ensure this value is less than or equal to ${String(p.limit)}`, type: 'value_error.number.not_le' };
    case 'minimum':
      return { msg: `ensure this value is greater than or equal to ${String(p.limit)}`, type: 'value_error.number.not_ge' };
    case 'pattern':
      return { msg: `string does not match regex "${String(p.pattern)}"`, type: 'value_error.str.regex' };
    case 'enum':
      return {
        msg: `value is not a valid enumeration member; permitted: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        type: 'type_error.enum',
      };
    case 'format':
      return { msg: `value is not a valid ${String(p.format)}`, type: `value_error.${String(p.format).replace(/-/g, '_')}` };
    default:
      return { msg: error.message ?? 'invalid value', type: `value_error.${error.keyword}` };
  }
}

function typeName(jsonType: string): string {
  const names: Record<string, string> = { string: 'str', integer: 'integer', number: 'float', boolean: 'bool', object: 'dict', array: 'list', null: 'none' };
  return jsonType
    .split(',')
    .map((t) => names[t] ?? t)
    .join(' or ');
}
