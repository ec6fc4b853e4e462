/** A hit's data narrowed to the asked paths (each a list of keys); all of it when none were asked for. */
export function projectFields(data: Record<string, unknown>, paths: string[][] | undefined): Record<string, unknown> {
  if (!paths) return data;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    let source: unknown = data;
    for (const key of path) source = source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
    if (source === undefined) continue;
    let target = out;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      const child = (next !== null && typeof next === 'object' ? next : {}) as Record<string, unknown>;
      target[key] = child;
      target = child;
    }
    target[path.at(-1)!] = source;
  }
  return out;
}
