/**
 * Datetimes as the CDK's cursors handle them: parsed and formatted by its DatetimeParser (strptime and
 * strftime plus `%s`, `%ms`, `%s_as_float`, `%epoch_microseconds`, `%_ms`), durations by isodate
 * (months and years move the calendar, the rest is a timedelta). Built on the interpolation module's
 * Python datetime types, so a cursor and a template agree on every value.
 */
import { formatDatetime, type IsoDuration, parseDatetime, parseIsoDuration, PyDateTime, Timedelta } from '../interpolation/index.ts';

export { PyDateTime };
export type Duration = Timedelta | IsoDuration;

/** The first of `formats` that parses `value`, or undefined when none does. */
export function parseWithFormats(value: string | number, formats: readonly string[]): PyDateTime | undefined {
  for (const format of formats) {
    try {
      return parseDatetime(value, format);
    } catch {
      // The next format may fit (the CDK tries cursor_datetime_formats in order).
    }
  }
  return undefined;
}

export function formatWith(value: PyDateTime, format: string): string {
  return formatDatetime(value, format);
}

export function parseDuration(text: string): Duration {
  return parseIsoDuration(text);
}

export function isZero(duration: Duration): boolean {
  return duration instanceof Timedelta ? duration.micros === 0n : duration.years === 0 && duration.months === 0 && duration.tdelta.micros === 0n;
}

/** `value + duration` (sign -1: minus), months first on the calendar with the day clamped, as isodate adds. */
export function shift(value: PyDateTime, duration: Duration, sign: 1 | -1 = 1): PyDateTime {
  if (duration instanceof Timedelta) return value.plus(new Timedelta(duration.micros * BigInt(sign)));
  const months = sign * (duration.years * 12 + duration.months);
  const monthIndex = value.month - 1 + months;
  const year = value.year + Math.floor(monthIndex / 12);
  const month = (((monthIndex % 12) + 12) % 12) + 1;
  const day = Math.min(value.day, new Date(Date.UTC(year, month, 0)).getUTCDate());
  const moved = PyDateTime.of({ year, month, day, hour: value.hour, minute: value.minute, second: value.second, microsecond: value.microsecond }, value.offset);
  return moved.plus(new Timedelta(duration.tdelta.micros * BigInt(sign)));
}

/** By instant: whole seconds, then microseconds (the same order as epochMicros, without building bigints per record). */
export function compare(a: PyDateTime, b: PyDateTime): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.microsecond < b.microsecond ? -1 : a.microsecond > b.microsecond ? 1 : 0;
}

export function later(a: PyDateTime, b: PyDateTime): PyDateTime {
  return compare(a, b) >= 0 ? a : b;
}

export function earlier(a: PyDateTime, b: PyDateTime): PyDateTime {
  return compare(a, b) <= 0 ? a : b;
}

/** An instant (epoch milliseconds) as an aware UTC datetime. */
export function instantAt(ms: number): PyDateTime {
  return PyDateTime.fromMicros(BigInt(Math.trunc(ms)) * 1000n, 0);
}

/** The current instant of the read's clock. */
export function nowOf(clock: () => number): PyDateTime {
  return instantAt(clock());
}
