import { createHash, createHmac } from 'node:crypto';
import { PyTypeError, RenderError } from '../errors.ts';
import { REQUIRED, bindArguments } from '../python/arguments.ts';
import { binaryOp } from '../python/arithmetic.ts';
import { toPyFloat, toPyInt } from '../python/conversions.ts';
import { jsonDumps } from '../python/json-dumps.ts';
import { hashKey, isMapping, mappingEntries } from '../python/mapping.ts';
import { compareForOrder, iterate, pyLen, truthy } from '../python/semantics.ts';
import { pyStr } from '../python/to-string.ts';
import { regexReplace, regexSearch } from '../regex/index.ts';
import { floatValue, isFloat, isInt, isNumeric, PyFloat, Tuple, Undefined, typeName } from '../values.ts';
import { getAttribute, getItem } from './sandbox.ts';
import type { Runtime } from './runtime.ts';
import { replace } from './string-methods.ts';
import { PY_WHITESPACE } from '../python/whitespace.ts';

const TRIM = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, 'g');
import { roundHalfEven } from '../datetime/types.ts';

/** What a filter may use besides its arguments: the runtime, and the other filters and tests (for map, select...). */
export interface FilterRuntime extends Runtime {
  applyFilter(name: string, value: unknown, args: unknown[], kwargs: Map<string, unknown>): unknown;
  applyTest(name: string, value: unknown, args: unknown[]): boolean;
}

type Filter = (runtime: FilterRuntime, value: unknown, args: unknown[], kwargs: Map<string, unknown>) => unknown;

/** A filter whose parameters are bound the Python way (`value` comes first, as the piped value). */
function filter(
  name: string,
  spec: ReadonlyArray<readonly [string, unknown]>,
  body: (runtime: FilterRuntime, value: unknown, ...args: unknown[]) => unknown,
): Filter {
  return (runtime, value, args, kwargs) => body(runtime, value, ...bindArguments(name, args, kwargs, spec));
}

function str(value: unknown, runtime: Runtime): string {
  return pyStr(value, runtime.budget);
}

function items(value: unknown, runtime: Runtime): readonly unknown[] {
  const list = iterate(value, runtime.budget);
  runtime.budget.tick(list.length);
  return list;
}

/** Jinja's `attribute=` argument: a dotted path of attributes or integer indexes. */
function attributeGetter(attribute: unknown, runtime: Runtime): (item: unknown) => unknown {
  if (attribute === null) return (item) => item;
  const parts = typeof attribute === 'string' ? attribute.split('.') : [attribute];
  return (item) =>
    parts.reduce(
      (current, part) =>
        typeof part === 'string' && !/^\d+$/.test(part)
          ? getAttribute(current, part, runtime)
          : getItem(current, typeof part === 'string' ? Number(part) : part, runtime),
      item,
    );
}

/** Jinja's case-insensitive comparisons lower-case strings first. */
function sortKey(caseSensitive: unknown, getter: (item: unknown) => unknown): (item: unknown) => unknown {
  return (item) => {
    const value = getter(item);
    return !truthy(caseSensitive) && typeof value === 'string' ? value.toLowerCase() : value;
  };
}

function stableSort(list: readonly unknown[], key: (item: unknown) => unknown, reverse: boolean, runtime: Runtime): unknown[] {
  runtime.budget.tick(list.length * Math.max(1, Math.ceil(Math.log2(list.length + 1))));
  const keyed = list.map((item, index) => ({ item, key: key(item), index }));
  keyed.sort((a, b) => {
    const order = compareForOrder(a.key, b.key, '<', runtime.budget);
    return (reverse ? -order : order) || a.index - b.index;
  });
  return keyed.map(({ item }) => item);
}

function minOrMax(which: 'min' | 'max'): Filter {
  return filter(
    which,
    [
      ['case_sensitive', false],
      ['attribute', null],
    ],
    (runtime, value, caseSensitive, attribute) => {
      const list = items(value, runtime);
      if (list.length === 0) return new Undefined('no aggregated item, the sequence was empty');
      const key = sortKey(caseSensitive, attributeGetter(attribute, runtime));
      return list.reduce((best, item) => {
        const order = compareForOrder(key(item), key(best), '<', runtime.budget);
        return (which === 'min' ? order < 0 : order > 0) ? item : best;
      });
    },
  );
}

/** Jinja's url_quote: UTF-8, only `A-Za-z0-9_.-~` kept (and `/` outside query strings). */
function urlQuote(value: unknown, forQueryString: boolean, runtime: Runtime): string {
  const text = typeof value === 'string' ? value : str(value, runtime);
  const quoted = encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return forQueryString ? quoted.replace(/%20/g, '+') : quoted.replace(/%2F/g, '/');
}

const HASH_ALGORITHMS: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
};

function base64Decode(text: string): string {
  // Python's b64decode drops characters outside the alphabet, then needs correct padding.
  const cleaned = text.replace(/[^A-Za-z0-9+/=]/g, '');
  const body = cleaned.replace(/=+$/, '');
  if (body.includes('=') || (body.length % 4 !== 0 && cleaned.length % 4 !== 0) || body.length % 4 === 1)
    throw new RenderError('invalid base64 (incorrect padding)');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(body, 'base64'));
  } catch {
    throw new RenderError('the decoded base64 is not UTF-8 text');
  }
}

function requireString(value: unknown, filterName: string): string {
  if (typeof value !== 'string') throw new PyTypeError(`${filterName} expects a string, not ${typeName(value)}`);
  return value;
}

/** Python's round(): half to even at n=0; otherwise by decimal digits. */
function pyRound(value: unknown, precision: number, method: string): unknown {
  if (!isNumeric(value)) throw new PyTypeError(`type ${typeName(value)} doesn't define __round__ method`);
  if (method !== 'common' && method !== 'ceil' && method !== 'floor') throw new PyTypeError('method must be common, ceil or floor');
  const number = floatValue(value);
  const scale = 10 ** precision;
  if (method === 'ceil') return new PyFloat(Math.ceil(number * scale) / scale);
  if (method === 'floor') return new PyFloat(Math.floor(number * scale) / scale);
  if (isInt(value) || typeof value === 'boolean') return precision >= 0 ? Number(value) : roundHalfEven(number * scale) / scale;
  if (precision === 0) return new PyFloat(roundHalfEven(number));
  return new PyFloat(precision > 0 ? Number(number.toFixed(Math.min(precision, 100))) : roundHalfEven(number * scale) / scale);
}

/** Null-prototype, so that a name such as `constructor` finds no filter. */
export const FILTERS: Record<string, Filter> = Object.assign(Object.create(null) as Record<string, Filter>, {
  default: filter(
    'default',
    [
      ['default_value', ''],
      ['boolean', false],
    ],
    (_, value, fallback, boolean) => (value instanceof Undefined || (truthy(boolean) && !truthy(value)) ? fallback : value),
  ),
  int: filter(
    'int',
    [
      ['default', 0],
      ['base', 10],
    ],
    (_, value, fallback, base) => {
      const direct = typeof value === 'string' ? toPyInt(value, Number(base)) : toPyInt(value);
      if (direct !== null) return direct;
      const float = toPyFloat(value);
      return float !== null && Number.isFinite(float) ? toPyInt(new PyFloat(float)) : fallback;
    },
  ),
  float: filter('float', [['default', new PyFloat(0)]], (_, value, fallback) => {
    const float = toPyFloat(value);
    return float === null ? fallback : new PyFloat(float);
  }),
  /** The CDK's `string`: a str stays as is; anything else becomes its JSON in triple quotes, so literal_eval gives the JSON text. */
  string: filter('string', [], (runtime, value) => (typeof value === 'string' ? value : `"""${jsonDumps(value, { budget: runtime.budget })}"""`)),
  list: filter('list', [], (runtime, value) => [...items(value, runtime)]),
  length: filter('length', [], (_, value) => pyLen(value)),
  lower: filter('lower', [], (runtime, value) => str(value, runtime).toLowerCase()),
  upper: filter('upper', [], (runtime, value) => str(value, runtime).toUpperCase()),
  capitalize: filter('capitalize', [], (runtime, value) => {
    const text = str(value, runtime);
    return text ? text[0]!.toUpperCase() + text.slice(1).toLowerCase() : text;
  }),
  title: filter('title', [], (runtime, value) =>
    str(value, runtime)
      .toLowerCase()
      .replace(/(^|[\s\-_([{<"'])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()),
  ),
  trim: filter('trim', [['chars', null]], (runtime, value, chars) => {
    const text = str(value, runtime);
    if (chars === null) return text.replace(TRIM, '');
    const set = str(chars, runtime);
    let start = 0;
    let end = text.length;
    while (start < end && set.includes(text[start]!)) start++;
    while (end > start && set.includes(text[end - 1]!)) end--;
    return text.slice(start, end);
  }),
  first: filter('first', [], (runtime, value) => {
    const list = iterate(value, runtime.budget);
    return list.length ? list[0] : new Undefined('no first item, the sequence was empty');
  }),
  last: filter('last', [], (runtime, value) => {
    const list = iterate(value, runtime.budget);
    return list.length ? list[list.length - 1] : new Undefined('no last item, the sequence was empty');
  }),
  join: filter(
    'join',
    [
      ['d', ''],
      ['attribute', null],
    ],
    (runtime, value, separator, attribute) => {
      const getter = attributeGetter(attribute, runtime);
      const parts = items(value, runtime).map((item) => str(getter(item), runtime));
      const glue = str(separator, runtime);
      runtime.budget.checkSize(parts.reduce((total, part) => total + part.length, 0) + glue.length * Math.max(0, parts.length - 1));
      return parts.join(glue);
    },
  ),
  map: (runtime, value, args, kwargs) => {
    const list = items(value, runtime);
    if (args.length === 0 && kwargs.has('attribute')) {
      const getter = attributeGetter(kwargs.get('attribute'), runtime);
      const fallback = kwargs.has('default') ? kwargs.get('default') : undefined;
      return list.map((item) => {
        const mapped = getter(item);
        return mapped instanceof Undefined && fallback !== undefined ? fallback : mapped;
      });
    }
    const [name, ...rest] = args;
    if (typeof name !== 'string') throw new RenderError('map() needs a filter name or attribute=');
    if (!Object.hasOwn(FILTERS, name)) throw new RenderError(`no filter named '${name}'`);
    return list.map((item) => runtime.applyFilter(name, item, rest, kwargs));
  },
  select: selectOrReject(false, false),
  reject: selectOrReject(true, false),
  selectattr: selectOrReject(false, true),
  rejectattr: selectOrReject(true, true),
  urlencode: filter('urlencode', [], (runtime, value) => {
    if (typeof value === 'string' || !(isMapping(value) || Array.isArray(value) || value instanceof Tuple || value instanceof Undefined))
      return urlQuote(value, false, runtime);
    const pairs = isMapping(value) ? mappingEntries(value) : items(value, runtime).map((pair) => iterate(pair, runtime.budget) as [unknown, unknown]);
    return pairs.map(([key, item]) => `${urlQuote(key, true, runtime)}=${urlQuote(item, true, runtime)}`).join('&');
  }),
  replace: filter(
    'replace',
    [
      ['old', REQUIRED],
      ['new', REQUIRED],
      ['count', null],
    ],
    (runtime, value, old, replacement, count) =>
      replace(str(value, runtime), str(old, runtime), str(replacement, runtime), count === null ? -1 : Number(count), runtime),
  ),
  round: filter(
    'round',
    [
      ['precision', 0],
      ['method', 'common'],
    ],
    (_, value, precision, method) => pyRound(value, Number(precision), String(method)),
  ),
  abs: filter('abs', [], (_, value) => {
    if (!isNumeric(value)) throw new PyTypeError(`bad operand type for abs(): '${typeName(value)}'`);
    if (isFloat(value)) return new PyFloat(Math.abs(floatValue(value)));
    return typeof value === 'bigint' ? (value < 0n ? -value : value) : Math.abs(Number(value));
  }),
  tojson: filter('tojson', [['indent', null]], (runtime, value, indent) =>
    jsonDumps(value, { sortKeys: true, indent: indent === null ? null : Number(indent), budget: runtime.budget }).replace(
      /[<>&']/g,
      (char) => `\\u00${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
    ),
  ),
  unique: filter(
    'unique',
    [
      ['case_sensitive', false],
      ['attribute', null],
    ],
    (runtime, value, caseSensitive, attribute) => {
      const key = sortKey(caseSensitive, attributeGetter(attribute, runtime));
      const seen = new Set<string>();
      return items(value, runtime).filter((item) => {
        const hash = hashKey(key(item));
        if (seen.has(hash)) return false;
        seen.add(hash);
        return true;
      });
    },
  ),
  sort: filter(
    'sort',
    [
      ['reverse', false],
      ['case_sensitive', false],
      ['attribute', null],
    ],
    (runtime, value, reverse, caseSensitive, attribute) =>
      stableSort(items(value, runtime), sortKey(caseSensitive, attributeGetter(attribute, runtime)), truthy(reverse), runtime),
  ),
  dictsort: filter(
    'dictsort',
    [
      ['case_sensitive', false],
      ['by', 'key'],
      ['reverse', false],
    ],
    (runtime, value, caseSensitive, by, reverse) => {
      if (!isMapping(value)) throw new RenderError('you can only sort by either "key" or "value" of a dict');
      const position = by === 'value' ? 1 : 0;
      const pairs = mappingEntries(value).map((pair) => new Tuple(pair));
      return stableSort(
        pairs,
        sortKey(caseSensitive, (pair) => (pair as Tuple).items[position]),
        truthy(reverse),
        runtime,
      );
    },
  ),
  items: filter('items', [], (runtime, value) =>
    value instanceof Undefined ? [] : isMapping(value) ? mappingEntries(value).map((pair) => new Tuple(pair)) : raiseNotMapping(value, runtime),
  ),
  sum: filter(
    'sum',
    [
      ['attribute', null],
      ['start', 0],
    ],
    (runtime, value, attribute, start) => {
      const getter = attributeGetter(attribute, runtime);
      return items(value, runtime).reduce((total: unknown, item) => binaryOp('+', total, getter(item), runtime.budget), start);
    },
  ),
  min: minOrMax('min'),
  max: minOrMax('max'),
  reverse: filter('reverse', [], (runtime, value) => (typeof value === 'string' ? [...value].reverse().join('') : [...items(value, runtime)].reverse())),
  wordcount: filter('wordcount', [], (runtime, value) => (str(value, runtime).match(/\w+/gu) ?? []).length),
  escape: filter('escape', [], (runtime, value) => htmlEscape(str(value, runtime))),
  safe: filter('safe', [], (_, value) => value),

  // The CDK's own filters.
  hash: filter(
    'hash',
    [
      ['hash_type', 'md5'],
      ['salt', null],
    ],
    (runtime, value, hashType, salt) => {
      const algorithm = typeof hashType === 'string' ? HASH_ALGORITHMS[hashType] : undefined;
      if (!algorithm) throw new RenderError('unknown hash type');
      const hash = createHash(algorithm).update(str(value, runtime), 'utf8');
      if (truthy(salt)) hash.update(str(salt, runtime), 'utf8');
      return hash.digest('hex');
    },
  ),
  hmac: filter(
    'hmac',
    [
      ['key', REQUIRED],
      ['hash_type', 'sha256'],
    ],
    (runtime, value, key, hashType) => {
      if (hashType !== 'sha256') throw new RenderError('hmac only supports sha256');
      return createHmac('sha256', str(key, runtime)).update(str(value, runtime), 'utf8').digest('hex');
    },
  ),
  base64encode: filter('base64encode', [], (_, value) => Buffer.from(requireString(value, 'base64encode'), 'utf8').toString('base64')),
  base64decode: filter('base64decode', [], (_, value) => base64Decode(requireString(value, 'base64decode'))),
  /** Named "decode" in the CDK, it encodes (standard base64 of ASCII text); kept as the CDK has it. */
  base64binascii_decode: filter('base64binascii_decode', [], (_, value) => {
    const text = requireString(value, 'base64binascii_decode');
    if ([...text].some((char) => char.charCodeAt(0) > 0x7f)) throw new RenderError('base64binascii_decode expects ASCII text');
    return Buffer.from(text, 'latin1').toString('base64');
  }),
  regex_search: filter('regex_search', [['regex', REQUIRED]], (runtime, value, regex) => {
    const match = regexSearch(requireString(regex, 'regex_search'), requireString(value, 'regex_search'), runtime.budget);
    if (!match) return '';
    return match.groups.length > 1 ? (match.groups[1] ?? null) : '';
  }),
  regex_replace: filter(
    'regex_replace',
    [
      ['regex', REQUIRED],
      ['replacement', REQUIRED],
    ],
    (runtime, value, regex, replacement) =>
      regexReplace(requireString(regex, 'regex_replace'), requireString(replacement, 'regex_replace'), requireString(value, 'regex_replace'), runtime.budget),
  ),
} satisfies Record<string, Filter>);
FILTERS.d = FILTERS.default!;
FILTERS.count = FILTERS.length!;
FILTERS.e = FILTERS.escape!;

function raiseNotMapping(value: unknown, runtime: Runtime): never {
  void runtime;
  throw new PyTypeError(`can only get item pairs from a mapping, not ${typeName(value)}`);
}

function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[char]!);
}

/** select / reject (by a test on the item) and selectattr / rejectattr (by a test on an attribute). */
function selectOrReject(reject: boolean, byAttribute: boolean): Filter {
  return (runtime, value, args, kwargs) => {
    void kwargs;
    let rest = args;
    let getter: (item: unknown) => unknown = (item) => item;
    if (byAttribute) {
      const [attribute, ...others] = rest;
      if (attribute === undefined) throw new PyTypeError('selectattr() needs an attribute name');
      getter = attributeGetter(attribute, runtime);
      rest = others;
    }
    const [testName, ...testArgs] = rest;
    const check =
      testName === undefined
        ? (item: unknown) => truthy(item)
        : (item: unknown) => {
            if (typeof testName !== 'string') throw new PyTypeError('the test name must be a string');
            return runtime.applyTest(testName, item, testArgs);
          };
    return items(value, runtime).filter((item) => check(getter(item)) !== reject);
  };
}
