import { RenderError } from '../errors.ts';
import { civilFromDays, daysFromCivil } from './calendar.ts';
import { MONTH_NAMES, WEEKDAY_NAMES } from './names.ts';
import { PyDateTime } from './types.ts';

/**
 * Python's `datetime.strptime`: the whole text must match the format (case-insensitive), the result
 * is naive unless the format has %z. Any mismatch is Python's ValueError.
 */
export function strptime(text: string, format: string): PyDateTime {
  const compiled = compile(format);
  const match = compiled.regex.exec(text);
  if (!match) throw new RenderError(`time data does not match format ${JSON.stringify(format)}`);
  const groups = match.groups ?? {};
  const get = (name: string): string | undefined => groups[name];

  let year = 1900;
  let month = 1;
  let day = 1;
  let hour = 0;
  const yearText = get('Y') ?? get('G');
  if (yearText !== undefined) year = Number(yearText);
  else if (get('y') !== undefined) {
    const short = Number(get('y'));
    year = short < 69 ? 2000 + short : 1900 + short;
  }
  if (get('m') !== undefined) month = Number(get('m'));
  else if (get('B') !== undefined) month = monthIndex(get('B')!, false) + 1;
  else if (get('b') !== undefined) month = monthIndex(get('b')!, true) + 1;
  if (get('d') !== undefined) day = Number(get('d')!.trim());
  if (get('H') !== undefined) hour = Number(get('H'));
  else if (get('I') !== undefined) {
    hour = Number(get('I')) % 12;
    if ((get('p') ?? '').toLowerCase() === 'pm') hour += 12;
  }
  const minute = Number(get('M') ?? 0);
  let second = Number(get('S') ?? 0);
  if (second === 61) second = 59;
  const microsecond = get('f') === undefined ? 0 : Number(get('f')!.padEnd(6, '0'));
  if (get('j') !== undefined && get('m') === undefined && get('d') === undefined) {
    const civil = civilFromDays(daysFromCivil(year, 1, 1) + Number(get('j')) - 1);
    month = civil.month;
    day = civil.day;
  }
  const offset = get('z') === undefined ? null : parseOffset(get('z')!);
  if (second === 60) throw new RenderError('second must be in 0..59');
  return PyDateTime.of({ year, month, day, hour, minute, second, microsecond }, offset);
}

/** `Z`, `+HHMM`, `+HH:MM`, with optional seconds: seconds east of UTC. */
function parseOffset(text: string): number {
  if (text.toUpperCase() === 'Z') return 0;
  const digits = text.slice(1).replace(/:/g, '');
  const seconds = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4)) * 60 + Number(digits.slice(4, 6) || 0);
  return text.startsWith('-') ? -seconds : seconds;
}

function monthIndex(name: string, short: boolean): number {
  const lower = name.toLowerCase();
  return MONTH_NAMES.findIndex((month) => (short ? month.slice(0, 3) : month).toLowerCase() === lower);
}

const names = (list: string[], short: boolean) => list.map((name) => (short ? name.slice(0, 3) : name)).join('|');

/** Python's `_strptime` patterns, directive by directive. */
const DIRECTIVES: Record<string, string> = {
  d: '(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])',
  f: '(?<f>[0-9]{1,6})',
  H: '(?<H>2[0-3]|[0-1]\\d|\\d)',
  I: '(?<I>1[0-2]|0[1-9]|[1-9])',
  G: '(?<G>\\d\\d\\d\\d)',
  j: '(?<j>36[0-6]|3[0-5]\\d|[12]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9])',
  m: '(?<m>1[0-2]|0[1-9]|[1-9])',
  M: '(?<M>[0-5]\\d|\\d)',
  S: '(?<S>6[0-1]|[0-5]\\d|\\d)',
  U: '(?<U>5[0-3]|[0-4]\\d|\\d)',
  W: '(?<W>5[0-3]|[0-4]\\d|\\d)',
  w: '(?<w>[0-6])',
  u: '(?<u>[1-7])',
  V: '(?<V>5[0-3]|0[1-9]|[1-4]\\d|\\d)',
  y: '(?<y>\\d\\d)',
  Y: '(?<Y>\\d\\d\\d\\d)',
  z: '(?<z>[+-]\\d\\d:?[0-5]\\d(?::?[0-5]\\d(?:\\.\\d{1,6})?)?|[Zz])',
  A: `(?<A>${names(WEEKDAY_NAMES, false)})`,
  a: `(?<a>${names(WEEKDAY_NAMES, true)})`,
  B: `(?<B>${names(MONTH_NAMES, false)})`,
  b: `(?<b>${names(MONTH_NAMES, true)})`,
  p: '(?<p>am|pm)',
  Z: '(?<Z>utc|gmt)',
  '%': '%',
};

const COMPOSITES: Record<string, string> = { c: '%a %b %d %H:%M:%S %Y', x: '%m/%d/%y', X: '%H:%M:%S' };

const cache = new Map<string, { regex: RegExp }>();

function compile(format: string): { regex: RegExp } {
  const cached = cache.get(format);
  if (cached) return cached;
  let expanded = format;
  for (const [char, replacement] of Object.entries(COMPOSITES)) expanded = expanded.replaceAll(`%${char}`, replacement);
  let pattern = '';
  const seen = new Set<string>();
  for (let i = 0; i < expanded.length; i++) {
    const char = expanded[i]!;
    if (char === '%') {
      const spec = expanded[++i];
      if (spec === undefined) throw new RenderError(`stray % in format ${JSON.stringify(format)}`);
      const directive = DIRECTIVES[spec];
      if (directive === undefined) throw new RenderError(`'${spec}' is a bad directive in format ${JSON.stringify(format)}`);
      if (spec !== '%' && seen.has(spec)) throw new RenderError(`redefinition of directive %${spec} in format ${JSON.stringify(format)}`);
      seen.add(spec);
      pattern += directive;
    } else if (/\s/.test(char)) {
      pattern += '\\s+';
      while (i + 1 < expanded.length && /\s/.test(expanded[i + 1]!)) i++;
    } else {
      pattern += char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    }
  }
  const compiled = { regex: new RegExp(`^${pattern}$`, 'i') };
  if (cache.size > 500) cache.clear();
  cache.set(format, compiled);
  return compiled;
}
