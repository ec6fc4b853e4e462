import { normalizeInt } from '../values.ts';
import { floatRepr } from './float-repr.ts';
import type { Literal } from './literal-eval.ts';

/** The Python types a caller may accept from an interpolation (the CDK's `valid_types`). */
export type PyType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'tuple' | 'dict' | 'set' | 'NoneType';

/** Python's isinstance for the literal: a bool is also an int. */
export function literalIsOneOf(literal: Literal, types: readonly PyType[]): boolean {
  if (literal.type === 'complex') return false;
  return types.includes(literal.type) || (literal.type === 'bool' && types.includes('int'));
}

/**
 * The JavaScript value handed back: ints as numbers (bigint past 2^53), tuples and sets as arrays,
 * dicts as plain objects. A non-string dict key is written as json.dumps would write it (`1`, `true`, `null`).
 */
export function literalToJs(literal: Literal): unknown {
  switch (literal.type) {
    case 'NoneType':
      return null;
    case 'bool':
    case 'str':
    case 'float':
      return literal.value;
    case 'int':
      return normalizeInt(literal.value);
    case 'complex':
      throw new Error('complex numbers are never returned');
    case 'list':
    case 'tuple':
    case 'set':
      return literal.items.map(literalToJs);
    case 'dict': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of literal.entries) {
        // defineProperty, so that a key named __proto__ is an ordinary key.
        Object.defineProperty(out, keyText(key), { value: literalToJs(value), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
  }
}

function keyText(key: Literal): string {
  switch (key.type) {
    case 'str':
      return key.value;
    case 'NoneType':
      return 'null';
    case 'bool':
      return key.value ? 'true' : 'false';
    case 'int':
      return key.value.toString();
    case 'float':
      return floatRepr(key.value);
    default:
      return JSON.stringify(literalToJs(key));
  }
}
