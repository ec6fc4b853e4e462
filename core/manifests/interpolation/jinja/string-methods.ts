import { PyTypeError, RenderError } from '../errors.ts';
import { REQUIRED, bindArguments } from '../python/arguments.ts';
import { MISSING } from '../python/mapping.ts';
import { iterate } from '../python/semantics.ts';
import { PY_WHITESPACE } from '../python/whitespace.ts';
import { Callable, isInt, Tuple, typeName } from '../values.ts';
import type { Runtime } from './runtime.ts';

/** Python's whitespace, which `split()` and `strip()` use without an argument, and its line breaks. */
const LINE_BREAK = new RegExp(`\\r\\n|[\\n\\r\\v\\f${String.fromCharCode(0x1c, 0x1d, 0x1e)}\\x85\\u2028\\u2029]`);
const WHITESPACE = new RegExp(`[${PY_WHITESPACE}]`);
const WORD = new RegExp(`[^${PY_WHITESPACE}]+`, 'g');

/** The allow-listed methods of a Python str (none of them change anything: str is immutable). */
export function stringMethod(text: string, name: string, runtime: Runtime): unknown {
  const { budget } = runtime;
  const method = (spec: ReadonlyArray<readonly [string, unknown]>, body: (...args: unknown[]) => unknown) =>
    new Callable(name, (args, kwargs) => body(...bindArguments(name, args, kwargs, spec)));
  const str = (value: unknown, what: string): string => {
    if (typeof value !== 'string') throw new PyTypeError(`${what} must be str, not ${typeName(value)}`);
    return value;
  };
  const optionalChars = (chars: unknown): string | null => (chars === null ? null : str(chars, 'the characters to strip'));

  switch (name) {
    case 'split':
    case 'rsplit':
      return method(
        [
          ['sep', null],
          ['maxsplit', -1],
        ],
        (sep, maxsplit) => {
          if (!isInt(maxsplit)) throw new PyTypeError('maxsplit must be an integer');
          const parts = split(text, sep === null ? null : str(sep, 'the separator'), Number(maxsplit), name === 'rsplit');
          budget.tick(parts.length);
          return parts;
        },
      );
    case 'join':
      return method([['iterable', REQUIRED]], (iterable) => {
        const items = iterate(iterable, budget);
        budget.tick(items.length);
        const strings = items.map((item, index) => {
          if (typeof item !== 'string') throw new PyTypeError(`sequence item ${index}: expected str instance, ${typeName(item)} found`);
          return item;
        });
        budget.checkSize(strings.reduce((total, item) => total + item.length, 0) + text.length * Math.max(0, strings.length - 1));
        return strings.join(text);
      });
    case 'replace':
      return method(
        [
          ['old', REQUIRED],
          ['new', REQUIRED],
          ['count', -1],
        ],
        (old, replacement, count) => replace(text, str(old, 'replace() argument 1'), str(replacement, 'replace() argument 2'), Number(count), runtime),
      );
    case 'strip':
      return method([['chars', null]], (chars) => strip(text, optionalChars(chars), true, true));
    case 'lstrip':
      return method([['chars', null]], (chars) => strip(text, optionalChars(chars), true, false));
    case 'rstrip':
      return method([['chars', null]], (chars) => strip(text, optionalChars(chars), false, true));
    case 'lower':
      return method([], () => text.toLowerCase());
    case 'upper':
      return method([], () => text.toUpperCase());
    case 'title':
      return method([], () => text.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()));
    case 'capitalize':
      return method([], () => (text ? text[0]!.toUpperCase() + text.slice(1).toLowerCase() : text));
    case 'startswith':
    case 'endswith':
      return method([['prefix', REQUIRED]], (affix) => {
        const candidates = affix instanceof Tuple ? affix.items : [affix];
        return candidates.some((candidate) => (name === 'startswith' ? text.startsWith(str(candidate, name)) : text.endsWith(str(candidate, name))));
      });
    case 'find':
      return method([['sub', REQUIRED]], (sub) => text.indexOf(str(sub, 'find() argument')));
    case 'rfind':
      return method([['sub', REQUIRED]], (sub) => text.lastIndexOf(str(sub, 'rfind() argument')));
    case 'count':
      return method([['sub', REQUIRED]], (sub) => {
        const needle = str(sub, 'count() argument');
        return needle === '' ? text.length + 1 : text.split(needle).length - 1;
      });
    case 'isdigit':
    case 'isnumeric':
    case 'isdecimal':
      return method([], () => /^\p{Nd}+$/u.test(text));
    case 'isalpha':
      return method([], () => /^\p{L}+$/u.test(text));
    case 'isalnum':
      return method([], () => /^[\p{L}\p{Nd}]+$/u.test(text));
    case 'isspace':
      return method([], () => text.length > 0 && [...text].every((char) => WHITESPACE.test(char)));
    case 'islower':
      return method([], () => /\p{Ll}/u.test(text) && text === text.toLowerCase());
    case 'isupper':
      return method([], () => /\p{Lu}/u.test(text) && text === text.toUpperCase());
    case 'zfill':
      return method([['width', REQUIRED]], (width) => {
        const size = Number(width);
        budget.checkSize(size);
        const sign = text[0] === '-' || text[0] === '+' ? text[0] : '';
        return sign + text.slice(sign.length).padStart(size - sign.length, '0');
      });
    case 'splitlines':
      return method([], () => text.split(LINE_BREAK).filter((line, index, all) => index < all.length - 1 || line !== ''));
    case 'removeprefix':
      return method([['prefix', REQUIRED]], (prefix) => (text.startsWith(str(prefix, name)) ? text.slice((prefix as string).length) : text));
    case 'removesuffix':
      return method([['suffix', REQUIRED]], (suffix) => {
        const end = str(suffix, name);
        return end && text.endsWith(end) ? text.slice(0, -end.length) : text;
      });
    default:
      return MISSING;
  }
}

/** Python's `str.split` / `rsplit`: no separator splits on runs of whitespace and drops empty ends. */
export function split(text: string, sep: string | null, maxsplit: number, fromRight: boolean): string[] {
  if (sep === '') throw new RenderError('empty separator');
  const limit = maxsplit < 0 ? Number.POSITIVE_INFINITY : maxsplit;
  if (sep === null) {
    // With a limit, the unsplit rest keeps its whitespace (on the far side only).
    const words = [...text.matchAll(WORD)];
    if (words.length <= limit + 1) return words.map((word) => word[0]);
    if (fromRight) {
      const firstKept = words.length - limit;
      const head = words[firstKept - 1]!;
      return [text.slice(0, head.index + head[0].length), ...words.slice(firstKept).map((word) => word[0])];
    }
    return [...words.slice(0, limit).map((word) => word[0]), text.slice(words[limit]!.index)];
  }
  const all = text.split(sep);
  if (all.length <= limit + 1) return all;
  if (fromRight) return [all.slice(0, all.length - limit).join(sep), ...all.slice(all.length - limit)];
  return [...all.slice(0, limit), all.slice(limit).join(sep)];
}

function strip(text: string, chars: string | null, left: boolean, right: boolean): string {
  const strips = (char: string) => (chars === null ? WHITESPACE.test(char) : chars.includes(char));
  const characters = [...text];
  let start = 0;
  let end = characters.length;
  if (left) while (start < end && strips(characters[start]!)) start++;
  if (right) while (end > start && strips(characters[end - 1]!)) end--;
  return characters.slice(start, end).join('');
}

/** Python's `str.replace`, size-checked first (an empty `old` inserts `new` between every character). */
export function replace(text: string, old: string, replacement: string, count: number, runtime: Runtime): string {
  const occurrences = old === '' ? [...text].length + 1 : text.split(old).length - 1;
  const times = count < 0 ? occurrences : Math.min(count, occurrences);
  runtime.budget.checkSize(text.length + times * (replacement.length - old.length));
  runtime.budget.tick(times);
  if (old === '') {
    const chars = [...text];
    let out = '';
    for (let i = 0; i <= chars.length; i++) {
      if (i < times) out += replacement;
      if (i < chars.length) out += chars[i];
    }
    return out;
  }
  if (count < 0) return text.split(old).join(replacement);
  const parts = text.split(old);
  return parts.slice(0, times + 1).join(replacement) + (parts.length > times + 1 ? old + parts.slice(times + 1).join(old) : '');
}
