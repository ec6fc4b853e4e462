import { PyTypeError } from '../errors.ts';
import { PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { isFloat, isInt, isPlainObject, PyDict, PyFloat, StreamSlice, Tuple, typeName } from '../values.ts';

/**
 * One view over the three kinds of Python dict a template meets: a plain JSON object (string keys,
 * own properties only, so nothing of Object.prototype is ever reachable), a PyDict built by the
 * template, and a StreamSlice (partition and cursor slice together).
 */
export type Mapping = Record<string, unknown> | PyDict | StreamSlice;

export const MISSING: unique symbol = Symbol('missing');

export function isMapping(value: unknown): value is Mapping {
  return value instanceof PyDict || value instanceof StreamSlice || isPlainObject(value);
}

function ownRecord(mapping: Record<string, unknown> | StreamSlice): Record<string, unknown> {
  return mapping instanceof StreamSlice ? mapping.merged : mapping;
}

export function mappingGet(mapping: Mapping, key: unknown): unknown {
  if (mapping instanceof PyDict) {
    const entry = mapping.entries.get(hashKey(key));
    return entry === undefined ? MISSING : entry[1];
  }
  if (typeof key !== 'string') {
    hashKey(key); // an unhashable key is a TypeError even where no key could match
    return MISSING;
  }
  const record = ownRecord(mapping);
  if (!Object.hasOwn(record, key)) return MISSING;
  return record[key] ?? null;
}

export function mappingKeys(mapping: Mapping): unknown[] {
  if (mapping instanceof PyDict) return [...mapping.entries.values()].map(([key]) => key);
  return Object.keys(ownRecord(mapping));
}

export function mappingEntries(mapping: Mapping): Array<[unknown, unknown]> {
  if (mapping instanceof PyDict) return [...mapping.entries.values()];
  return Object.entries(ownRecord(mapping)).map(([key, value]) => [key, value ?? null]);
}

export function mappingSize(mapping: Mapping): number {
  return mapping instanceof PyDict ? mapping.entries.size : Object.keys(ownRecord(mapping)).length;
}

/** A dict from key/value pairs: a plain object when every key is a string, else a PyDict. */
export function makeDict(pairs: Iterable<[unknown, unknown]>): Mapping {
  const list = [...pairs];
  if (list.every(([key]) => typeof key === 'string')) {
    const record = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of list) record[key as string] = value;
    return record;
  }
  const dict = new PyDict();
  for (const [key, value] of list) dict.set(key, value, hashKey(key));
  return dict;
}

/** Python's hash identity: equal keys (1, 1.0, True) collide; lists and dicts are unhashable. */
export function hashKey(key: unknown): string {
  if (typeof key === 'string') return `s:${key}`;
  if (key === null) return 'None';
  if (typeof key === 'boolean') return `n:${key ? 1 : 0}`;
  if (isInt(key)) return `n:${key.toString()}`;
  if (isFloat(key)) {
    const number = key instanceof PyFloat ? key.value : key;
    return Number.isInteger(number) ? `n:${BigInt(number).toString()}` : `n:${number}`;
  }
  if (key instanceof Tuple) return `t:(${key.items.map(hashKey).join(',')})`;
  if (key instanceof PyDateTime) return `dt:${key.epochMicros}:${key.offset === null ? 'naive' : 'aware'}`;
  if (key instanceof PyDate) return `d:${key.days}`;
  if (key instanceof Timedelta) return `td:${key.micros}`;
  throw new PyTypeError(`unhashable type: '${typeName(key)}'`);
}
