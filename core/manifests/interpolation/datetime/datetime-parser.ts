import { RenderError } from '../errors.ts';
import { floatRepr } from '../python/float-repr.ts';
import { compileFixedWidth } from './fixed-width-strptime.ts';
import { strftime } from './strftime.ts';
import { strptime } from './strptime.ts';
import { PyDateTime } from './types.ts';

/**
 * The CDK's DatetimeParser, used by `format_datetime` and by the datetime cursors: the epoch formats
 * `%s`, `%s_as_float`, `%ms`, `%epoch_microseconds`, `%_ms` (3-digit milliseconds), else Python's
 * strptime/strftime. A parsed naive datetime is UTC.
 */
export function parseDatetime(input: string | number, format: string): PyDateTime {
  let parse = parsers.get(format);
  if (parse === undefined) {
    parse = compileParser(format);
    if (parsers.size >= MAX_CACHED_FORMATS) parsers.clear();
    parsers.set(format, parse);
  }
  return parse(input);
}

type Parse = (input: string | number) => PyDateTime;

/** Parsers by format: a cursor parses every record's value with the same one or two. */
const parsers = new Map<string, Parse>();
const MAX_CACHED_FORMATS = 500;

function compileParser(format: string): Parse {
  switch (format) {
    case '%s':
      return (input) => {
        const seconds = smallWholeNumber(input);
        return seconds === undefined ? PyDateTime.fromMicros(parseInteger(String(input)) * 1_000_000n, 0) : new PyDateTime(seconds, 0, 0);
      };
    case '%s_as_float':
      return (input) => {
        const text = String(input);
        const seconds = Number(text);
        if (text.trim() === '' || !Number.isFinite(seconds)) throw new RenderError('not a number of seconds');
        return PyDateTime.fromMicros(BigInt(Math.round(seconds * 1_000_000)), 0);
      };
    case '%epoch_microseconds':
      return (input) => PyDateTime.fromMicros(parseInteger(String(input)), 0);
    case '%ms':
      return (input) => {
        const ms = smallWholeNumber(input);
        if (ms === undefined) return PyDateTime.fromMicros(parseInteger(String(input)) * 1000n, 0);
        const seconds = Math.floor(ms / 1000);
        return new PyDateTime(seconds, (ms - seconds * 1000) * 1000, 0);
      };
  }
  // Text in the format's fixed widths skips strptime's regex; any other text gets strptime's own answer or error.
  const strptimeFormat = format.replaceAll('%_ms', '%f');
  const fixedWidth = compileFixedWidth(strptimeFormat, 0);
  return (input) => {
    const text = String(input);
    const fast = fixedWidth?.(text);
    if (fast !== undefined) return fast;
    const parsed = strptime(text, strptimeFormat);
    return parsed.aware ? parsed : parsed.withOffset(0);
  };
}

export function formatDatetime(value: PyDateTime, format: string): string {
  switch (format) {
    case '%s':
      return String(Math.trunc(value.timestamp()));
    case '%s_as_float':
      return floatRepr(value.timestamp());
    case '%ms':
      return (value.epochMicros / 1000n).toString();
    case '%epoch_microseconds':
      return value.epochMicros.toString();
  }
  if (format.includes('%_ms')) return strftime(value, format.replaceAll('%_ms', String(Math.floor(value.microsecond / 1000)).padStart(3, '0')));
  return strftime(value, format);
}

/**
 * An integer of at most 15 digits (a number, or digits alone), exact in a double and in `ms / 1000`;
 * undefined for anything else, which Python's `int()` reads on the slow path (signs, underscores, spaces).
 */
function smallWholeNumber(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isInteger(input) && Math.abs(input) < 1e15 ? input + 0 : undefined;
  if (input.length === 0 || input.length > 15) return undefined;
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return undefined;
  }
  return Number(input);
}

/** Python's `int(text)`: optional sign, digits with single underscores, surrounding whitespace. */
function parseInteger(text: string): bigint {
  const trimmed = text.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(trimmed)) throw new RenderError('invalid literal for int()');
  return BigInt(trimmed.replace(/_/g, ''));
}
