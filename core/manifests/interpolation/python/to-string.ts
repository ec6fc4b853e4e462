import type { Budget } from '../budget.ts';
import { IsoDuration, PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { Callable, DictView, isFloat, isInt, Namespace, PyFloat, Tuple, Undefined, typeName } from '../values.ts';
import { floatRepr } from './float-repr.ts';
import { isMapping, mappingEntries } from './mapping.ts';
import { stringRepr } from './string-repr.ts';

/**
 * Python's `str()`, which is what `{{ }}` prints: `None`, `True`, `2.0`, `{'a': [1, 'b']}`,
 * `2021-09-01 00:00:00+00:00`, `1 day, 0:00:00`. An undefined value prints as nothing.
 */
export function pyStr(value: unknown, budget?: Budget): string {
  if (typeof value === 'string') return value;
  if (value instanceof Undefined) return '';
  if (value instanceof PyDateTime || value instanceof PyDate || value instanceof Timedelta || value instanceof IsoDuration) return value.toString();
  return pyRepr(value, budget);
}

/** Python's `repr()`, used for the items of a list, tuple or dict. */
export function pyRepr(value: unknown, budget?: Budget, depth = 0): string {
  budget?.tick();
  budget?.checkDepth(depth);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return stringRepr(value);
  if (isInt(value)) return value.toString();
  if (isFloat(value)) return floatRepr(value instanceof PyFloat ? value.value : value);
  if (value instanceof Undefined) return 'Undefined';
  const inner = (item: unknown) => pyRepr(item, budget, depth + 1);
  if (Array.isArray(value)) return `[${value.map(inner).join(', ')}]`;
  if (value instanceof Tuple) return value.items.length === 1 ? `(${inner(value.items[0])},)` : `(${value.items.map(inner).join(', ')})`;
  if (isMapping(value)) {
    return `{${mappingEntries(value)
      .map(([key, item]) => `${inner(key)}: ${inner(item)}`)
      .join(', ')}}`;
  }
  if (value instanceof DictView) return `${value.kind}([${value.items.map(inner).join(', ')}])`;
  if (value instanceof PyDateTime || value instanceof PyDate || value instanceof Timedelta) return value.repr();
  if (value instanceof IsoDuration) return `isodate.duration.Duration(${value.toString()})`;
  if (value instanceof Callable) return `<function ${value.name}>`;
  if (value instanceof Namespace) {
    return `<Namespace ${[...value.attributes].map(([key, item]) => `${stringRepr(key)}: ${inner(item)}`).join(', ')}>`;
  }
  return `<${typeName(value)} object>`;
}
