import { dayOfYear, daysFromCivil, weekdayOfDays } from './calendar.ts';
import { MONTH_NAMES, WEEKDAY_NAMES } from './names.ts';
import { formatOffset, type PyDate, PyDateTime } from './types.ts';

/**
 * Python's `strftime` as it runs in the CDK's Linux containers: Python itself expands %f, %z and %Z,
 * glibc does the rest (its `-` `_` `0` `^` `#` flags included, an unknown directive is kept as
 * written, and %s reads the wall clock as UTC because the containers run in UTC).
 */
export function strftime(value: PyDate | PyDateTime, format: string): string {
  const dt = value instanceof PyDateTime ? value : null;
  const hour = dt?.hour ?? 0;
  const minute = dt?.minute ?? 0;
  const second = dt?.second ?? 0;
  const days = daysFromCivil(value.year, value.month, value.day);
  const weekday = weekdayOfDays(days);
  const yday = dayOfYear(value.year, value.month, value.day);
  const iso = isoWeek(value.year, yday, weekday);

  const numeric = (n: number, width: number, padChar: string) => ({ text: String(n), width, padChar });
  const directive = (char: string): { text: string; width: number; padChar: string } | string | null => {
    switch (char) {
      case 'a':
        return WEEKDAY_NAMES[weekday]!.slice(0, 3);
      case 'A':
        return WEEKDAY_NAMES[weekday]!;
      case 'b':
      case 'h':
        return MONTH_NAMES[value.month - 1]!.slice(0, 3);
      case 'B':
        return MONTH_NAMES[value.month - 1]!;
      case 'd':
        return numeric(value.day, 2, '0');
      case 'e':
        return numeric(value.day, 2, ' ');
      case 'm':
        return numeric(value.month, 2, '0');
      case 'y':
        return numeric(value.year % 100, 2, '0');
      case 'Y':
        return numeric(value.year, 1, '0');
      case 'C':
        return numeric(Math.floor(value.year / 100), 2, '0');
      case 'G':
        return numeric(iso.year, 1, '0');
      case 'g':
        return numeric(iso.year % 100, 2, '0');
      case 'V':
        return numeric(iso.week, 2, '0');
      case 'H':
        return numeric(hour, 2, '0');
      case 'k':
        return numeric(hour, 2, ' ');
      case 'I':
        return numeric(hour % 12 || 12, 2, '0');
      case 'l':
        return numeric(hour % 12 || 12, 2, ' ');
      case 'M':
        return numeric(minute, 2, '0');
      case 'S':
        return numeric(second, 2, '0');
      case 'f':
        return String(dt?.microsecond ?? 0).padStart(6, '0');
      case 'p':
        return hour < 12 ? 'AM' : 'PM';
      case 'P':
        return hour < 12 ? 'am' : 'pm';
      case 'j':
        return numeric(yday, 3, '0');
      case 'u':
        return numeric(weekday + 1, 1, '0');
      case 'w':
        return numeric((weekday + 1) % 7, 1, '0');
      case 'U':
        return numeric(Math.floor((yday + 6 - ((weekday + 1) % 7)) / 7), 2, '0');
      case 'W':
        return numeric(Math.floor((yday + 6 - weekday) / 7), 2, '0');
      case 'z':
        return dt?.offset === null || dt === null ? '' : formatOffset(dt.offset!, '');
      case 'Z':
        return dt?.offset === null || dt === null ? '' : dt.offset === 0 ? 'UTC' : `UTC${formatOffset(dt.offset!, ':')}`;
      case 's':
        return numeric(days * 86_400 + hour * 3600 + minute * 60 + second, 1, '0');
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case '%':
        return '%';
      case 'c':
        return strftime(value, '%a %b %e %H:%M:%S %Y');
      case 'x':
      case 'D':
        return strftime(value, '%m/%d/%y');
      case 'X':
      case 'T':
        return strftime(value, '%H:%M:%S');
      case 'F':
        return strftime(value, '%Y-%m-%d');
      case 'R':
        return strftime(value, '%H:%M');
      case 'r':
        return strftime(value, '%I:%M:%S %p');
      default:
        return null;
    }
  };

  let out = '';
  for (let i = 0; i < format.length; i++) {
    const char = format[i]!;
    if (char !== '%') {
      out += char;
      continue;
    }
    let j = i + 1;
    let flag = '';
    while (j < format.length && '-_0^#'.includes(format[j]!)) flag = format[j++]!;
    const spec = format[j];
    const result = spec === undefined ? null : directive(spec);
    if (result === null) {
      // glibc keeps a directive it does not know, flags included.
      out += format.slice(i, j + 1);
      i = j;
      continue;
    }
    out += typeof result === 'string' ? applyCase(result, flag) : applyPadding(result, flag);
    i = j;
  }
  return out;
}

function applyCase(text: string, flag: string): string {
  if (flag === '^') return text.toUpperCase();
  if (flag === '#') return text === text.toUpperCase() ? text.toLowerCase() : text.toUpperCase();
  return text;
}

function applyPadding(value: { text: string; width: number; padChar: string }, flag: string): string {
  if (flag === '-') return value.text;
  const padChar = flag === '_' ? ' ' : flag === '0' ? '0' : value.padChar;
  return value.text.padStart(value.width, padChar);
}

/** ISO 8601 week-numbering year and week. */
function isoWeek(year: number, yday: number, weekday: number): { year: number; week: number } {
  const week = Math.floor((yday - (weekday + 1) + 10) / 7);
  if (week < 1) {
    const previous = year - 1;
    const previousDays = daysFromCivil(previous, 12, 31);
    return isoWeek(previous, dayOfYear(previous, 12, 31), weekdayOfDays(previousDays));
  }
  const daysInYear = dayOfYear(year, 12, 31);
  if (week === 53 && yday - weekday + 3 > daysInYear) return { year: year + 1, week: 1 };
  return { year, week };
}
