import type { Budget } from '../budget.ts';
import { PyTypeError } from '../errors.ts';
import { isFloat, isInt, PyFloat, Tuple, typeName } from '../values.ts';
import { floatRepr } from './float-repr.ts';
import { isMapping, mappingEntries } from './mapping.ts';
import { compareForOrder } from './semantics.ts';

/**
 * Python's `json.dumps` with its defaults: `", "` and `": "` separators, non-ASCII escaped,
 * NaN/Infinity allowed, tuples as arrays; anything else (a datetime, an undefined value) is a TypeError.
 */
export function jsonDumps(value: unknown, options: { sortKeys?: boolean; indent?: number | null; budget?: Budget } = {}): string {
  const { sortKeys = false, indent = null, budget } = options;
  const write = (item: unknown, depth: number): string => {
    budget?.tick();
    budget?.checkDepth(depth);
    if (item === null || item === undefined) return 'null';
    if (item === true) return 'true';
    if (item === false) return 'false';
    if (typeof item === 'string') return jsonString(item);
    if (isInt(item)) return item.toString();
    if (isFloat(item)) {
      const number = item instanceof PyFloat ? item.value : item;
      if (Number.isNaN(number)) return 'NaN';
      if (!Number.isFinite(number)) return number > 0 ? 'Infinity' : '-Infinity';
      return floatRepr(number);
    }
    const newline = indent === null ? '' : `\n${' '.repeat(indent * (depth + 1))}`;
    const closing = indent === null ? '' : `\n${' '.repeat(indent * depth)}`;
    const separator = indent === null ? ', ' : ',';
    if (Array.isArray(item) || item instanceof Tuple) {
      const items = Array.isArray(item) ? item : item.items;
      if (items.length === 0) return '[]';
      return `[${newline}${items.map((child) => write(child, depth + 1)).join(separator + newline)}${closing}]`;
    }
    if (isMapping(item)) {
      let entries = mappingEntries(item).map(([key, child]) => [jsonKey(key), child] as [string, unknown]);
      if (sortKeys) entries = entries.sort(([a], [b]) => compareForOrder(a, b, '<'));
      if (entries.length === 0) return '{}';
      return `{${newline}${entries.map(([key, child]) => `${jsonString(key)}: ${write(child, depth + 1)}`).join(separator + newline)}${closing}}`;
    }
    throw new PyTypeError(`Object of type ${typeName(item)} is not JSON serializable`);
  };
  return write(value, 0);
}

/** Dict keys as json.dumps writes them: str as is, numbers as text, True/None as `true`/`null`. */
export function jsonKey(key: unknown): string {
  if (typeof key === 'string') return key;
  if (key === true) return 'true';
  if (key === false) return 'false';
  if (key === null) return 'null';
  if (isInt(key)) return key.toString();
  if (isFloat(key)) return floatRepr(key instanceof PyFloat ? key.value : key);
  throw new PyTypeError(`keys must be str, int, float, bool or None, not ${typeName(key)}`);
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A JSON string with ensure_ascii: every non-ASCII UTF-16 unit as \uXXXX. */
export function jsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    const escaped = ESCAPES[char];
    if (escaped) out += escaped;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}
