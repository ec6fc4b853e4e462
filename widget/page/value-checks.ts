import type { JsonSchema } from './api.ts';

/** A schema's type; a nullable one's non-null type. */
export const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type);

/**
 * What is wrong with a field's value by its schema's own keywords, or undefined: the checks the
 * server makes of the same schema, run before it answers so every problem shows in one round.
 * `value` is what the field sends (undefined: left out).
 */
export function schemaProblem(schema: JsonSchema, required: boolean, value: unknown): string | undefined {
  if (value === undefined || value === '') return required ? 'This field is required.' : undefined;
  if (typeof value === 'number') return numberProblem(schema, value);
  // A number field sends what the browser could not read as a number as it was typed.
  if (typeOf(schema) === 'integer' || typeOf(schema) === 'number') return 'Enter a number.';
  if (typeof value === 'string') return stringProblem(schema, value);
  return undefined;
}

function numberProblem(schema: JsonSchema, value: number): string | undefined {
  if (typeOf(schema) === 'integer' && !Number.isInteger(value)) return 'Enter a whole number.';
  if (schema.minimum !== undefined && value < schema.minimum) return `Enter ${schema.minimum} or more.`;
  if (schema.maximum !== undefined && value > schema.maximum) return `Enter ${schema.maximum} or less.`;
  return undefined;
}

function stringProblem(schema: JsonSchema, value: string): string | undefined {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return `Enter at least ${schema.minLength} characters.`;
  if (schema.maxLength !== undefined && length > schema.maxLength) return `Enter at most ${schema.maxLength} characters.`;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
    return schema['x-error-message'] ?? 'This value is not in the expected form.';
  return undefined;
}
