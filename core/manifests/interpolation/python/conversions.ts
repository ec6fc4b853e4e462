import { PyTypeError, UndefinedError } from '../errors.ts';
import { floatValue, isFloat, isInt, normalizeInt, PyFloat, Undefined, typeName } from '../values.ts';

const DIGITS = '\\d(?:_?\\d)*';
const FLOAT_TEXT = new RegExp(`^[+-]?(?:(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`, 'i');

/** Python's `float(x)`, or null where it raises ValueError/TypeError. */
export function toPyFloat(value: unknown): number | null {
  if (value instanceof Undefined) throw new UndefinedError(`${value.hint} (converting it to a number)`);
  if (typeof value === 'boolean' || isInt(value) || isFloat(value)) return floatValue(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!FLOAT_TEXT.test(text)) return null;
  const lower = text.toLowerCase().replace(/_/g, '');
  if (lower.endsWith('nan')) return Number.NaN;
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return Number(lower);
}

/** Python's `int(x)` (`int(text, base)` for strings), or null where it raises ValueError/TypeError. */
export function toPyInt(value: unknown, base = 10): number | bigint | null {
  if (value instanceof Undefined) throw new UndefinedError(`${value.hint} (converting it to a number)`);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (isInt(value)) return value;
  if (isFloat(value)) {
    const number = value instanceof PyFloat ? value.value : value;
    return Number.isFinite(number) ? normalizeInt(BigInt(Math.trunc(number))) : null;
  }
  if (typeof value !== 'string') return null;
  let text = value.trim().replace(/(?<=[\da-zA-Z])_(?=[\da-zA-Z])/g, '');
  let sign = 1n;
  if (text.startsWith('-') || text.startsWith('+')) {
    if (text.startsWith('-')) sign = -1n;
    text = text.slice(1);
  }
  let radix = base;
  const prefixed = /^0([xob])/i.exec(text);
  if (base === 0) {
    radix = prefixed ? { x: 16, o: 8, b: 2 }[prefixed[1]!.toLowerCase() as 'x' | 'o' | 'b'] : 10;
    if (prefixed) text = text.slice(2);
    else if (/^0+[1-9]/.test(text)) return null;
  } else if (prefixed && { x: 16, o: 8, b: 2 }[prefixed[1]!.toLowerCase() as 'x' | 'o' | 'b'] === base) {
    text = text.slice(2);
  }
  if (radix < 2 || radix > 36 || text === '') return null;
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  let result = 0n;
  for (const char of text.toLowerCase()) {
    const digit = alphabet.indexOf(char);
    if (digit === -1) return null;
    result = result * BigInt(radix) + BigInt(digit);
  }
  return normalizeInt(sign * result);
}

export function requireInt(value: unknown, what: string): number {
  if (!isInt(value) && typeof value !== 'boolean') throw new PyTypeError(`${what} must be an integer, not ${typeName(value)}`);
  return Number(value);
}
