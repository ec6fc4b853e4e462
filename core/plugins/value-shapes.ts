/** Shape checks of an unvalidated plugin's values, read before anything is known about them. */

// biome-ignore lint/suspicious/noExplicitAny: the checks read an unvalidated plugin's fields one by one.
export function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Absent, or an object whose values are all strings. */
export function isStringMap(value: unknown): boolean {
  return value === undefined || (isObject(value) && Object.values(value).every((v) => typeof v === 'string'));
}
