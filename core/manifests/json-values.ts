/** Plain JSON values as a parsed manifest holds them, and the few operations the loader needs on them. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Python's truthiness, which the CDK's loader relies on (`component.get(key) or parameter`): `None`,
 * `False`, `0`, `""`, `[]` and `{}` are false.
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A deep copy of a JSON value (objects and arrays rebuilt, own keys only, `__proto__` kept as a plain key). */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyJson(item)])) as T;
}

/** Sets `object[key]` as an own data property, even for `__proto__`. */
export function setField(object: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A path as problems name it: `streams[3].retriever.paginator`, `authenticators["oauth2.0"]`; `(root)` for the manifest itself. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === '' ? '(root)' : text;
}
