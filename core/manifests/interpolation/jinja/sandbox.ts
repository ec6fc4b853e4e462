import { PyTypeError, RenderError, UndefinedError } from '../errors.ts';
import { PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { REQUIRED, bindArguments, sliceIndices } from '../python/arguments.ts';
import { isMapping, MISSING, type Mapping, makeDict, mappingEntries, mappingGet, mappingKeys } from '../python/mapping.ts';
import { Callable, DictView, isInt, Namespace, StreamSlice, Tuple, Undefined, typeName } from '../values.ts';
import { datetimeAttribute } from './datetime-methods.ts';
import type { Runtime } from './runtime.ts';
import { stringMethod } from './string-methods.ts';
import { pyEquals } from '../python/semantics.ts';

/**
 * Attribute and item access: the sandbox. A template reaches only the own keys of plain objects, the
 * items of arrays, and the allow-listed methods and attributes below; anything else (`constructor`,
 * `__proto__`, `__class__`, a method that would change the data) is undefined or refused, never a
 * JavaScript property. Lookups follow Jinja's sandbox: `x.name` tries the attribute then the key,
 * `x['name']` the key then the attribute.
 */

const MUTATING_METHODS = new Set([
  'append',
  'extend',
  'insert',
  'pop',
  'remove',
  'clear',
  'sort',
  'reverse',
  'update',
  'popitem',
  'setdefault',
  '__setitem__',
  '__delitem__',
]);

function undefinedAttribute(value: unknown, name: string): Undefined {
  return new Undefined(`'${typeName(value)} object' has no attribute '${name}'`);
}

export function getAttribute(value: unknown, name: string, runtime: Runtime): unknown {
  if (value instanceof Undefined) throw new UndefinedError(`${value.hint} (reading its attribute '${name}')`);
  const builtin = builtinAttribute(value, name, runtime);
  if (builtin !== MISSING) return builtin;
  if (isMapping(value)) {
    const item = mappingGet(value, name);
    if (item !== MISSING) return item;
  }
  if (value instanceof Namespace && value.attributes.has(name)) return value.attributes.get(name);
  return undefinedAttribute(value, name);
}

export function getItem(value: unknown, key: unknown, runtime: Runtime): unknown {
  if (value instanceof Undefined) throw new UndefinedError(`${value.hint} (reading one of its items)`);
  if (isMapping(value)) {
    const item = safeMappingGet(value, key);
    if (item !== MISSING) return item;
  } else if ((Array.isArray(value) || value instanceof Tuple || typeof value === 'string') && (isInt(key) || typeof key === 'boolean')) {
    const items = typeof value === 'string' ? codePoints(value) : Array.isArray(value) ? value : value.items;
    const index = Number(key);
    const position = index < 0 ? index + items.length : index;
    if (position >= 0 && position < items.length) return items[position];
  }
  if (typeof key === 'string') {
    const builtin = builtinAttribute(value, key, runtime);
    if (builtin !== MISSING) return builtin;
    if (value instanceof Namespace && value.attributes.has(key)) return value.attributes.get(key);
  }
  return new Undefined(`'${typeName(value)} object' has no such item`);
}

function safeMappingGet(mapping: Mapping, key: unknown): unknown {
  try {
    return mappingGet(mapping, key);
  } catch (error) {
    if (error instanceof PyTypeError) return MISSING;
    throw error;
  }
}

export function getSlice(value: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  if (value instanceof Undefined) throw new UndefinedError(`${value.hint} (slicing it)`);
  const bound = (part: unknown): number | null => {
    if (part === null || part === undefined) return null;
    if (isInt(part) || typeof part === 'boolean') return Number(part);
    throw new PyTypeError('slice indices must be integers or None');
  };
  const [from, to, by] = [bound(start), bound(stop), bound(step)];
  if (typeof value === 'string') {
    const chars = codePoints(value);
    return sliceIndices(chars.length, from, to, by)
      .map((i) => chars[i])
      .join('');
  }
  if (Array.isArray(value)) return sliceIndices(value.length, from, to, by).map((i) => value[i]);
  if (value instanceof Tuple) return new Tuple(sliceIndices(value.items.length, from, to, by).map((i) => value.items[i]));
  throw new PyTypeError(`'${typeName(value)}' object is not subscriptable`);
}

/** A string as Python indexes it: by code point. */
export function codePoints(text: string): string[] {
  return /[\uD800-\uDFFF]/.test(text) ? [...text] : text.split('');
}

function method(name: string, spec: ReadonlyArray<readonly [string, unknown]>, body: (...args: unknown[]) => unknown): Callable {
  return new Callable(name, (args, kwargs) => body(...bindArguments(name, args, kwargs, spec)));
}

/** The allow-listed attributes and methods of a value, or MISSING. */
function builtinAttribute(value: unknown, name: string, runtime: Runtime): unknown {
  if (typeof value === 'string') return stringMethod(value, name, runtime);
  if (Array.isArray(value) || value instanceof Tuple) {
    const items = Array.isArray(value) ? value : value.items;
    if (name === 'index') {
      return method('index', [['value', REQUIRED]], (needle) => {
        const position = items.findIndex((item) => pyEquals(item, needle, runtime.budget));
        if (position === -1) throw new RenderError('the value is not in the list');
        return position;
      });
    }
    if (name === 'count') return method('count', [['value', REQUIRED]], (needle) => items.filter((item) => pyEquals(item, needle, runtime.budget)).length);
    if (Array.isArray(value) && MUTATING_METHODS.has(name)) return refusedMutation('list', name);
    return MISSING;
  }
  if (value instanceof StreamSlice) {
    if (name === 'partition' || name === '_partition') return value.partition;
    if (name === 'cursor_slice') return value.cursor_slice;
    if (name === 'extra_fields') return value.extra_fields;
  }
  if (isMapping(value)) return mappingMethod(value, name, runtime);
  if (value instanceof PyDateTime || value instanceof PyDate || value instanceof Timedelta) return datetimeAttribute(value, name);
  return MISSING;
}

function mappingMethod(mapping: Mapping, name: string, runtime: Runtime): unknown {
  switch (name) {
    case 'get':
      return method(
        'get',
        [
          ['key', REQUIRED],
          ['default', null],
        ],
        (key, fallback) => {
          const item = safeMappingGet(mapping, key);
          return item === MISSING ? fallback : item;
        },
      );
    case 'keys':
      return method('keys', [], () => new DictView('dict_keys', mappingKeys(mapping)));
    case 'values':
      return method(
        'values',
        [],
        () =>
          new DictView(
            'dict_values',
            mappingEntries(mapping).map(([, item]) => item),
          ),
      );
    case 'items':
      return method(
        'items',
        [],
        () =>
          new DictView(
            'dict_items',
            mappingEntries(mapping).map(([key, item]) => new Tuple([key, item])),
          ),
      );
    case 'copy':
      return method('copy', [], () => {
        runtime.budget.tick(mappingKeys(mapping).length);
        return makeDict(mappingEntries(mapping));
      });
  }
  if (MUTATING_METHODS.has(name)) return refusedMutation('dict', name);
  return MISSING;
}

/**
 * Deliberately unlike the CDK (whose plain SandboxedEnvironment lets `list.append` run): a template
 * cannot change its inputs. Calling such a method fails with a clear error, as Jinja's immutable sandbox does.
 */
function refusedMutation(kind: string, name: string): Callable {
  return new Callable(name, () => {
    throw new RenderError(`${kind}.${name}() is not allowed: a template cannot change the data it reads`);
  });
}
