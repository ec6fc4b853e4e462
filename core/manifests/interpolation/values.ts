/**
 * The values a template works on. Context data stays as plain JSON-like JavaScript values (objects,
 * arrays, strings, numbers, booleans, null) so that a large response is never copied; what Python
 * has and JSON lacks gets a small class here. Python semantics decide: an integral JS number is an
 * int, a float made by the template is a `PyFloat` (it prints `2.0`), an int too large for a double
 * is a bigint.
 */

/** Jinja's lenient Undefined: prints as "", is false, and fails on anything else (UndefinedError). */
export class Undefined {
  constructor(readonly hint: string) {}
}

/** A Python float (prints `2.0`, `1e+16`). A non-integral JS number from the context is a float too. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A Python tuple: `(1, 2)`, what `{{ 1, 2 }}` and `dict.items()` make. */
export class Tuple {
  constructor(readonly items: readonly unknown[]) {}
}

/** A dict built by a template or by literal_eval; any hashable keys. Context objects stay plain objects. */
export class PyDict {
  readonly entries = new Map<string, [unknown, unknown]>();

  set(key: unknown, value: unknown, hash: string): void {
    this.entries.set(hash, [key, value]);
  }
}

/** `dict.keys()` / `.values()` / `.items()`: iterable, testable with `in`, printed as Python does. */
export class DictView {
  constructor(
    readonly kind: 'dict_keys' | 'dict_values' | 'dict_items',
    readonly items: readonly unknown[],
  ) {}
}

export type CallArgs = { args: unknown[]; kwargs: Map<string, unknown> };

/** A function a template may call: a macro, a bound method of a value, `dict`, `namespace`. */
export class Callable {
  constructor(
    readonly name: string,
    readonly call: (args: unknown[], kwargs: Map<string, unknown>) => unknown,
  ) {}
}

/** Jinja's `namespace()`: the one object a template may change (`{% set ns.x = 1 %}`). */
export class Namespace {
  readonly attributes = new Map<string, unknown>();
}

/**
 * The CDK's StreamSlice: a mapping of `partition` and `cursor_slice` together, with the three parts
 * as attributes (`stream_slice.extra_fields`, and `_partition`, which the CDK lets through for source-jira).
 */
export class StreamSlice {
  readonly partition: Record<string, unknown>;
  readonly cursor_slice: Record<string, unknown>;
  readonly extra_fields: Record<string, unknown>;
  readonly merged: Record<string, unknown>;

  constructor(parts: { partition?: Record<string, unknown>; cursor_slice?: Record<string, unknown>; extra_fields?: Record<string, unknown> }) {
    this.partition = parts.partition ?? {};
    this.cursor_slice = parts.cursor_slice ?? {};
    this.extra_fields = parts.extra_fields ?? {};
    this.merged = Object.assign(Object.create(null) as Record<string, unknown>, this.partition, this.cursor_slice);
  }
}

/** A plain JSON object: the only objects whose keys a template can read. Class instances are opaque. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isInt(value: unknown): value is number | bigint {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

export function isFloat(value: unknown): value is PyFloat | number {
  return value instanceof PyFloat || (typeof value === 'number' && !Number.isInteger(value));
}

/** bool, int or float: what Python's arithmetic accepts (bool is an int in Python). */
export function isNumeric(value: unknown): value is boolean | number | bigint | PyFloat {
  return typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint' || value instanceof PyFloat;
}

export function floatValue(value: boolean | number | bigint | PyFloat): number {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number(value);
}

/** An int from a bigint result: a JS number while it is exact, else the bigint. */
export function normalizeInt(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

export function toBigInt(value: boolean | number | bigint): bigint {
  if (typeof value === 'boolean') return value ? 1n : 0n;
  return typeof value === 'bigint' ? value : BigInt(value);
}

/** Python's type name of a value, for messages that never show the value itself. */
export function typeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (value instanceof Undefined) return 'Undefined';
  if (typeof value === 'boolean') return 'bool';
  if (isInt(value)) return 'int';
  if (isFloat(value)) return 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Tuple) return 'tuple';
  if (value instanceof PyDict || isPlainObject(value)) return 'dict';
  if (value instanceof StreamSlice) return 'StreamSlice';
  if (value instanceof DictView) return value.kind;
  if (value instanceof Callable) return 'function';
  if (value instanceof Namespace) return 'Namespace';
  const name = (value as { pyTypeName?: unknown } | undefined)?.pyTypeName;
  return typeof name === 'string' ? name : 'object';
}
