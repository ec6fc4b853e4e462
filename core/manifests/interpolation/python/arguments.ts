import { PyTypeError } from '../errors.ts';

export const REQUIRED: unique symbol = Symbol('required');

/**
 * Binds positional and keyword arguments to named parameters as Python does: too many, unknown or
 * missing arguments are a TypeError. `spec` lists the parameters with their defaults.
 */
export function bindArguments(
  name: string,
  args: readonly unknown[],
  kwargs: ReadonlyMap<string, unknown>,
  spec: ReadonlyArray<readonly [string, unknown]>,
): unknown[] {
  if (args.length > spec.length) throw new PyTypeError(`${name}() takes at most ${spec.length} arguments (${args.length} given)`);
  const values = spec.map(([, fallback], index) => (index < args.length ? args[index] : fallback));
  for (const [key, value] of kwargs) {
    const index = spec.findIndex(([parameter]) => parameter === key);
    if (index === -1) throw new PyTypeError(`${name}() got an unexpected keyword argument '${key}'`);
    if (index < args.length) throw new PyTypeError(`${name}() got multiple values for argument '${key}'`);
    values[index] = value;
  }
  const missing = values.indexOf(REQUIRED);
  if (missing !== -1) throw new PyTypeError(`${name}() missing required argument '${spec[missing]![0]}'`);
  return values;
}

/** Python's slice.indices(): the positions a slice `start:stop:step` takes from a sequence of `length`. */
export function sliceIndices(length: number, start: number | null, stop: number | null, step: number | null): number[] {
  const by = step ?? 1;
  if (by === 0) throw new PyTypeError('slice step cannot be zero');
  const clamp = (value: number | null, fallback: number, low: number, high: number) => {
    if (value === null) return fallback;
    const index = value < 0 ? value + length : value;
    return Math.min(Math.max(index, low), high);
  };
  const indices: number[] = [];
  if (by > 0) {
    const from = clamp(start, 0, 0, length);
    const to = clamp(stop, length, 0, length);
    for (let i = from; i < to; i += by) indices.push(i);
  } else {
    const from = clamp(start, length - 1, -1, length - 1);
    const to = clamp(stop, -1, -1, length - 1);
    for (let i = from; i > to; i += by) indices.push(i);
  }
  return indices;
}
