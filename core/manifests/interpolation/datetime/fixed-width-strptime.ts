import { daysInMonth, MIN_YEAR } from './calendar.ts';
import { PyDateTime } from './types.ts';

/**
 * A fast path for strptime formats made of numbers and literals only (`%Y-%m-%dT%H:%M:%S.%fZ`,
 * `%Y-%m-%d`, `%Y-%m-%dT%H:%M:%S%z`): a cursor parses one value per record, and strptime's regex
 * with named groups costs several times the parse itself.
 *
 * It answers only for text written in the canonical width (`%m` as two digits, `%f` as 1 to 6 digits,
 * `%z` as `Z` or `±HH[:]MM`), literals matched exactly and every field in range. strptime's regex
 * tries the longest form of each field first, so on such text its first match is this one, and the
 * answer is the same. Anything else (a one-digit month, `t` for `T`, `60` seconds, 31 February) gets
 * undefined: the caller runs strptime, which gives its own answer or error.
 */
export type FixedWidthParse = (text: string) => PyDateTime | undefined;

/** One piece of the format; every step has the same shape, so the parse loop reads them all alike. */
interface Step {
  /**
   * `literal`: the character `code`; `number`: exactly `width` digits within [min, max], for `field`;
   * `fraction` (`%f`): every digit up to the next non-digit, 1 to 6 of them; `offset` (`%z`): `Z`,
   * `z`, `±HHMM` or `±HH:MM`.
   */
  kind: 'literal' | 'number' | 'fraction' | 'offset';
  code: number;
  field: NumberField | null;
  width: number;
  min: number;
  max: number;
}

type NumberField = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/** The directives' widths and the ranges of their two-digit forms in strptime's patterns (seconds 60 and 61 left to strptime). */
const NUMBERS: Readonly<Record<string, Pick<Step, 'field' | 'width' | 'min' | 'max'>>> = {
  Y: { field: 'year', width: 4, min: MIN_YEAR, max: 9999 },
  m: { field: 'month', width: 2, min: 1, max: 12 },
  d: { field: 'day', width: 2, min: 1, max: 31 },
  H: { field: 'hour', width: 2, min: 0, max: 23 },
  M: { field: 'minute', width: 2, min: 0, max: 59 },
  S: { field: 'second', width: 2, min: 0, max: 59 },
};

const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const PLUS = 0x2b;
const MINUS = 0x2d;
const UPPER_Z = 0x5a;
const LOWER_Z = 0x7a;
/** What 1 to 6 digits of a fraction of a second are worth in microseconds. */
const FRACTION_SCALE = [0, 100_000, 10_000, 1000, 100, 10, 1];

const step = (kind: Step['kind'], fields: Partial<Step> = {}): Step => ({ kind, code: 0, field: null, width: 0, min: 0, max: 0, ...fields });

/**
 * The fast parser of a format, or undefined when the format has anything else: another directive,
 * a repeated one, whitespace (strptime's `\s+`) or a non-ASCII literal (case folding beyond ASCII).
 * `naiveOffset` is the offset given to a result without `%z` (the DatetimeParser's UTC).
 */
export function compileFixedWidth(format: string, naiveOffset: number | null): FixedWidthParse | undefined {
  const steps: Step[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < format.length; index++) {
    const char = format[index]!;
    if (char !== '%') {
      const code = char.charCodeAt(0);
      if (code <= 0x20 || code >= 0x7f) return undefined;
      steps.push(step('literal', { code }));
      continue;
    }
    const spec = format[++index];
    if (spec === '%') {
      steps.push(step('literal', { code: '%'.charCodeAt(0) }));
      continue;
    }
    if (spec === undefined || seen.has(spec)) return undefined;
    seen.add(spec);
    const number = NUMBERS[spec];
    if (number) steps.push(step('number', number));
    else if (spec === 'f') steps.push(step('fraction'));
    else if (spec === 'z') steps.push(step('offset'));
    else return undefined;
  }
  const offset = seen.has('z') ? null : naiveOffset;
  return (text) => parseSteps(text, steps, offset);
}

function parseSteps(text: string, steps: readonly Step[], naiveOffset: number | null): PyDateTime | undefined {
  let year = 1900;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let microsecond = 0;
  let offset = naiveOffset;
  let at = 0;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    switch (step.kind) {
      case 'literal':
        if (text.charCodeAt(at) !== step.code) return undefined;
        at++;
        break;
      case 'number': {
        const value = digitsAt(text, at, step.width);
        if (value < step.min || value > step.max) return undefined;
        at += step.width;
        if (step.field === 'year') year = value;
        else if (step.field === 'month') month = value;
        else if (step.field === 'day') day = value;
        else if (step.field === 'hour') hour = value;
        else if (step.field === 'minute') minute = value;
        else second = value;
        break;
      }
      case 'fraction': {
        let end = at;
        while (isDigit(text.charCodeAt(end))) end++;
        if (end === at || end - at > 6) return undefined;
        microsecond = digitsAt(text, at, end - at) * FRACTION_SCALE[end - at]!;
        at = end;
        break;
      }
      case 'offset': {
        const read = offsetAt(text, at);
        if (read === undefined) return undefined;
        offset = read.seconds;
        at = read.end;
        break;
      }
    }
  }
  if (at !== text.length || day > daysInMonth(year, month)) return undefined;
  return PyDateTime.of({ year, month, day, hour, minute, second, microsecond }, offset);
}

/** `Z`, `z`, `±HHMM` or `±HH:MM` at `at`, as seconds east of UTC; undefined when the text goes on with seconds (strptime's longer form). */
function offsetAt(text: string, at: number): { seconds: number; end: number } | undefined {
  const sign = text.charCodeAt(at);
  if (sign === UPPER_Z || sign === LOWER_Z) return { seconds: 0, end: at + 1 };
  if (sign !== PLUS && sign !== MINUS) return undefined;
  const hours = digitsAt(text, at + 1, 2);
  const minutesAt = text.charCodeAt(at + 3) === COLON ? at + 4 : at + 3;
  const minutes = digitsAt(text, minutesAt, 2);
  const end = minutesAt + 2;
  const next = text.charCodeAt(end);
  if (hours < 0 || minutes < 0 || minutes > 59 || isDigit(next) || next === COLON) return undefined;
  const seconds = hours * 3600 + minutes * 60;
  return { seconds: sign === MINUS ? -seconds : seconds, end };
}

/** The number written by `width` digits at `at`, or -1 when one of them is not a digit. */
function digitsAt(text: string, at: number, width: number): number {
  let value = 0;
  for (let index = at; index < at + width; index++) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - ZERO);
  }
  return value;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}
