import type { Ajv, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../sdk/index.ts';

declare const admits: unique symbol;

/**
 * A JSON Schema that carries, for the type checker only, the type of the values it admits (both
 * generated into types.generated.ts): code that takes the schema gets the type with it, so the two
 * cannot be declared apart.
 */
export type TypedSchema<T> = JsonSchema & { readonly [admits]?: T };

/** A validator whose success narrows the value to the schema's type. */
export function compileTyped<T>(ajv: Ajv, schema: TypedSchema<T>): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}
