/** Reads a dotted path (`response_metadata.next_cursor`, `error.errors.0.reason`); `''` is the value itself. */
export function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
