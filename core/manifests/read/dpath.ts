/**
 * The few `dpath` operations the CDK's components use on records and response bodies: read a path,
 * read every match of a glob (`*` one level, `**` any depth, `?` one character), create a path, delete
 * the matches of a glob. A segment indexes a list when it is an integer, a dict by its text.
 */

import { isObject, setField } from '../json-values.ts';

export type Segment = string | number;

function listIndex(segment: Segment, length: number): number | undefined {
  const index = typeof segment === 'number' ? segment : /^-?\d+$/.test(segment) ? Number(segment) : Number.NaN;
  if (!Number.isInteger(index)) return undefined;
  const position = index < 0 ? index + length : index;
  return position >= 0 && position < length ? position : undefined;
}

function child(node: unknown, segment: Segment): { found: boolean; value?: unknown } {
  if (Array.isArray(node)) {
    const index = listIndex(segment, node.length);
    return index === undefined ? { found: false } : { found: true, value: node[index] };
  }
  if (isObject(node)) {
    const key = String(segment);
    return Object.hasOwn(node, key) ? { found: true, value: node[key] } : { found: false };
  }
  return { found: false };
}

/** `dpath.get`: the value at `path`, or `fallback` when any segment is missing. */
export function getPath(root: unknown, path: readonly Segment[], fallback?: unknown): unknown {
  let node = root;
  for (const segment of path) {
    const next = child(node, segment);
    if (!next.found) return fallback;
    node = next.value;
  }
  return node;
}

export function hasGlob(path: readonly Segment[]): boolean {
  return path.some((segment) => typeof segment === 'string' && /[*?[]/.test(segment));
}

const patterns = new Map<string, RegExp>();

function segmentPattern(segment: string): RegExp {
  let pattern = patterns.get(segment);
  if (!pattern) {
    const body = segment
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    pattern = new RegExp(`^${body}$`, 's');
    if (patterns.size < 1000) patterns.set(segment, pattern);
  }
  return pattern;
}

function keysOf(node: unknown): Segment[] {
  if (Array.isArray(node)) return node.map((_, index) => index);
  if (isObject(node)) return Object.keys(node);
  return [];
}

/** Every `[path, value]` matching the glob, in document order (`dpath.search` / `dpath.values`). */
export function globMatches(root: unknown, glob: readonly Segment[]): Array<[Segment[], unknown]> {
  const found: Array<[Segment[], unknown]> = [];
  const seen = new Set<string>();
  const walk = (node: unknown, at: number, path: Segment[]): void => {
    if (at === glob.length) {
      const key = JSON.stringify(path);
      if (!seen.has(key)) {
        seen.add(key);
        found.push([path, node]);
      }
      return;
    }
    const segment = glob[at]!;
    if (segment === '**') {
      // Zero levels, then one more level under the same `**`.
      walk(node, at + 1, path);
      for (const key of keysOf(node)) walk(child(node, key).value, at, [...path, key]);
      return;
    }
    if (typeof segment === 'string' && /[*?[]/.test(segment)) {
      const pattern = segmentPattern(segment);
      for (const key of keysOf(node)) if (pattern.test(String(key))) walk(child(node, key).value, at + 1, [...path, key]);
      return;
    }
    const next = child(node, segment);
    if (next.found) walk(next.value, at + 1, [...path, Array.isArray(node) ? listIndex(segment, node.length)! : String(segment)]);
  };
  walk(root, 0, []);
  return found;
}

/** `dpath.new`: sets `value` at `path`, creating dicts on the way; an index past a list's end pads it with None. */
export function setPath(root: Record<string, unknown>, path: readonly Segment[], value: unknown): void {
  let node: unknown = root;
  path.forEach((segment, at) => {
    const last = at === path.length - 1;
    if (Array.isArray(node)) {
      const index = typeof segment === 'number' ? segment : Number(segment);
      if (!Number.isInteger(index) || index < 0) throw new TypeError(`cannot set list item ${JSON.stringify(segment)}`);
      while (node.length <= index) node.push(null);
      if (last) node[index] = value;
      else {
        if (node[index] === null || typeof node[index] !== 'object') node[index] = {};
        node = node[index];
      }
      return;
    }
    const dict = node as Record<string, unknown>;
    const key = String(segment);
    if (last) {
      setField(dict, key, value);
      return;
    }
    if (!Object.hasOwn(dict, key) || dict[key] === null || typeof dict[key] !== 'object') setField(dict, key, {});
    node = dict[key];
  });
}

/** `dpath.delete` of every match of the glob that `accept` takes (RemoveFields' condition); a missing path deletes nothing. */
export function deleteMatches(root: Record<string, unknown>, glob: readonly Segment[], accept: (value: unknown) => boolean = () => true): void {
  if (glob.length === 0) return;
  const matches = globMatches(root, glob).filter(([, value]) => accept(value));
  // Last first, so that deleting a list item never shifts one still to delete.
  for (const [path] of matches.reverse()) {
    const parent = getPath(root, path.slice(0, -1));
    const key = path[path.length - 1]!;
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else if (isObject(parent)) delete parent[String(key)];
  }
}
