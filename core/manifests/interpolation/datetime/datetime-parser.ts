import { RenderError } from '../errors.ts';
import { floatRepr } from '../python/float-repr.ts';
import { strftime } from './strftime.ts';
import { strptime } from './strptime.ts';
import { PyDateTime } from './types.ts';

/**
 * The CDK's DatetimeParser, used by `format_datetime` and by the datetime cursors: the epoch formats
 * `%s`, `%s_as_float`, `%ms`, `%epoch_microseconds`, `%_ms` (3-digit milliseconds), else Python's
 * strptime/strftime. A parsed naive datetime is UTC.
 */
export function parseDatetime(input: string | number, format: string): PyDateTime {
  const text = String(input);
  switch (format) {
    case '%s':
      return PyDateTime.fromMicros(parseInteger(text) * 1_000_000n, 0);
    case '%s_as_float': {
      const seconds = Number(text);
      if (text.trim() === '' || !Number.isFinite(seconds)) throw new RenderError('not a number of seconds');
      return PyDateTime.fromMicros(BigInt(Math.round(seconds * 1_000_000)), 0);
    }
    case '%epoch_microseconds':
      return PyDateTime.fromMicros(parseInteger(text), 0);
    case '%ms':
      return PyDateTime.fromMicros(parseInteger(text) * 1000n, 0);
  }
  const parsed = strptime(text, format.replaceAll('%_ms', '%f'));
  return parsed.aware ? parsed : parsed.withOffset(0);
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

/** Python's `int(text)`: optional sign, digits with single underscores, surrounding whitespace. */
function parseInteger(text: string): bigint {
  const trimmed = text.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(trimmed)) throw new RenderError('invalid literal for int()');
  return BigInt(trimmed.replace(/_/g, ''));
}
