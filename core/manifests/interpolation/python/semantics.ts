import type { Budget } from '../budget.ts';
import { PyTypeError, UndefinedError } from '../errors.ts';
import { IsoDuration, PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { DictView, floatValue, isFloat, isNumeric, PyFloat, Tuple, toBigInt, Undefined, typeName } from '../values.ts';
import { isMapping, MISSING, mappingGet, mappingKeys, mappingSize } from './mapping.ts';

/** Python's truth value (and Jinja's: an undefined value is false). */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value instanceof Undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0; // NaN is true in Python, and NaN !== 0
  if (typeof value === 'bigint') return value !== 0n;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (value instanceof Tuple || value instanceof DictView) return value.items.length > 0;
  if (isMapping(value)) return mappingSize(value) > 0;
  if (value instanceof Timedelta) return value.micros !== 0n;
  return true;
}

/** -1, 0, 1 for two numbers of any Python kind, NaN when unordered; exact for big ints. */
export function compareNumbers(left: boolean | number | bigint | PyFloat, right: boolean | number | bigint | PyFloat): number {
  if (!isFloat(left) && !isFloat(right)) {
    const a = toBigInt(left as boolean | number | bigint);
    const b = toBigInt(right as boolean | number | bigint);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const a = floatValue(left);
  const b = floatValue(right);
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Python's `==`. */
export function pyEquals(left: unknown, right: unknown, budget?: Budget, depth = 0): boolean {
  budget?.tick();
  budget?.checkDepth(depth);
  if (left instanceof Undefined || right instanceof Undefined) return left instanceof Undefined && right instanceof Undefined;
  if (isNumeric(left) && isNumeric(right)) return compareNumbers(left, right) === 0;
  if (typeof left === 'string' || typeof right === 'string') return left === right;
  if ((left === null || left === undefined) && (right === null || right === undefined)) return true;
  const itemsEqual = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, i) => pyEquals(item, b[i], budget, depth + 1));
  if (Array.isArray(left) && Array.isArray(right)) return itemsEqual(left, right);
  if (left instanceof Tuple && right instanceof Tuple) return itemsEqual(left.items, right.items);
  if (isMapping(left) && isMapping(right)) {
    const keys = mappingKeys(left);
    if (keys.length !== mappingSize(right)) return false;
    return keys.every((key) => {
      const other = mappingGet(right, key);
      return other !== MISSING && pyEquals(mappingGet(left, key), other, budget, depth + 1);
    });
  }
  if (left instanceof PyDateTime && right instanceof PyDateTime) return left.aware === right.aware && left.epochMicros === right.epochMicros;
  if (left instanceof PyDateTime || right instanceof PyDateTime) return false;
  if (left instanceof PyDate && right instanceof PyDate) return left.days === right.days;
  if (left instanceof Timedelta && right instanceof Timedelta) return left.micros === right.micros;
  if (left instanceof IsoDuration && right instanceof IsoDuration) {
    return left.years === right.years && left.months === right.months && left.tdelta.micros === right.tdelta.micros;
  }
  return left === right;
}

export type Ordering = '<' | '<=' | '>' | '>=';

/** Python's ordering operators; mixed kinds are a TypeError, an undefined operand an UndefinedError. */
export function pyOrder(op: Ordering, left: unknown, right: unknown, budget?: Budget): boolean {
  const order = compareForOrder(left, right, op, budget, 0);
  if (Number.isNaN(order)) return false;
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** -1/0/1 (NaN when unordered floats) for values Python can order, else the TypeError it raises. */
export function compareForOrder(left: unknown, right: unknown, op: string, budget?: Budget, depth = 0): number {
  budget?.tick();
  budget?.checkDepth(depth);
  if (left instanceof Undefined || right instanceof Undefined) throw new UndefinedError(`cannot compare an undefined value`);
  if (isNumeric(left) && isNumeric(right)) return compareNumbers(left, right);
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  const sequences = (a: readonly unknown[], b: readonly unknown[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEquals(a[i], b[i], budget, depth + 1)) return compareForOrder(a[i], b[i], op, budget, depth + 1);
    }
    return Math.sign(a.length - b.length);
  };
  if (Array.isArray(left) && Array.isArray(right)) return sequences(left, right);
  if (left instanceof Tuple && right instanceof Tuple) return sequences(left.items, right.items);
  if (left instanceof PyDateTime && right instanceof PyDateTime) {
    if (left.aware !== right.aware) throw new PyTypeError("can't compare offset-naive and offset-aware datetimes");
    const a = left.epochMicros;
    const b = right.epochMicros;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (left instanceof PyDate && right instanceof PyDate) return Math.sign(left.days - right.days);
  if (left instanceof Timedelta && right instanceof Timedelta) return left.micros < right.micros ? -1 : left.micros > right.micros ? 1 : 0;
  throw new PyTypeError(`'${op}' not supported between instances of '${typeName(left)}' and '${typeName(right)}'`);
}

/** The items a `for` loop, a filter or `list()` sees; a dict gives its keys, a string its characters. */
export function iterate(value: unknown, budget?: Budget): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Tuple || value instanceof DictView) return value.items;
  if (typeof value === 'string') {
    budget?.checkSize(value.length);
    return [...value];
  }
  if (isMapping(value)) return mappingKeys(value);
  if (value instanceof Undefined) return [];
  throw new PyTypeError(`'${typeName(value)}' object is not iterable`);
}

/** Python's `len()`; an undefined value has length 0, as Jinja says. */
export function pyLen(value: unknown): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Tuple || value instanceof DictView) return value.items.length;
  if (isMapping(value)) return mappingSize(value);
  if (value instanceof Undefined) return 0;
  throw new PyTypeError(`object of type '${typeName(value)}' has no len()`);
}

/** Python's `in`. */
export function pyContains(container: unknown, item: unknown, budget?: Budget): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new PyTypeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (isMapping(container)) return mappingGet(container, item) !== MISSING;
  if (container instanceof Undefined) return false;
  return iterate(container, budget).some((candidate) => pyEquals(candidate, item, budget));
}
