import { PyTypeError } from '../errors.ts';
import { strftime } from '../datetime/strftime.ts';
import { PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { REQUIRED, bindArguments } from '../python/arguments.ts';
import { MISSING } from '../python/mapping.ts';
import { Callable, isInt, PyFloat, typeName } from '../values.ts';

/** The allow-listed attributes and methods of date, datetime and timedelta. */
export function datetimeAttribute(value: PyDateTime | PyDate | Timedelta, name: string): unknown {
  const method = (spec: ReadonlyArray<readonly [string, unknown]>, body: (...args: unknown[]) => unknown) =>
    new Callable(name, (args, kwargs) => body(...bindArguments(name, args, kwargs, spec)));

  if (value instanceof Timedelta) {
    const parts = value.parts;
    if (name === 'days' || name === 'seconds' || name === 'microseconds') return parts[name];
    if (name === 'total_seconds') return method([], () => new PyFloat(value.totalSeconds()));
    return MISSING;
  }

  switch (name) {
    case 'year':
    case 'month':
    case 'day':
      return value[name];
    case 'strftime':
      return method([['format', REQUIRED]], (format) => {
        if (typeof format !== 'string') throw new PyTypeError(`strftime() argument 1 must be str, not ${typeName(format)}`);
        return strftime(value, format);
      });
    case 'weekday':
      return method([], () => value.weekday());
    case 'isoweekday':
      return method([], () => value.weekday() + 1);
  }

  if (value instanceof PyDate) {
    if (name === 'isoformat') return method([], () => value.isoformat());
    if (name === 'replace') {
      return method(
        [
          ['year', value.year],
          ['month', value.month],
          ['day', value.day],
        ],
        (year, month, day) => PyDate.of(integer(year), integer(month), integer(day)),
      );
    }
    return MISSING;
  }

  switch (name) {
    case 'hour':
    case 'minute':
    case 'second':
    case 'microsecond':
      return value[name];
    case 'isoformat':
      return method([['sep', 'T']], (sep) => {
        if (typeof sep !== 'string' || [...sep].length !== 1) throw new PyTypeError('isoformat() argument 1 must be a unicode character');
        return value.isoformat(sep);
      });
    case 'timestamp':
      return method([], () => new PyFloat(value.timestamp()));
    case 'date':
      return method([], () => value.date());
    case 'replace':
      return method(
        [
          ['year', value.year],
          ['month', value.month],
          ['day', value.day],
          ['hour', value.hour],
          ['minute', value.minute],
          ['second', value.second],
          ['microsecond', value.microsecond],
        ],
        (year, month, day, hour, minute, second, microsecond) =>
          PyDateTime.of(
            {
              year: integer(year),
              month: integer(month),
              day: integer(day),
              hour: integer(hour),
              minute: integer(minute),
              second: integer(second),
              microsecond: integer(microsecond),
            },
            value.offset,
          ),
      );
    default:
      return MISSING;
  }
}

function integer(value: unknown): number {
  if (!isInt(value)) throw new PyTypeError(`an integer is required (got type ${typeName(value)})`);
  return Number(value);
}
