import { randomUUID } from 'node:crypto';
import { PyTypeError, RenderError } from '../errors.ts';
import { formatDatetime, parseDatetime } from '../datetime/datetime-parser.ts';
import { isoparse } from '../datetime/iso-parse.ts';
import { parseIsoDuration } from '../datetime/iso-duration.ts';
import { strftime } from '../datetime/strftime.ts';
import { strptime } from '../datetime/strptime.ts';
import { PyDate, PyDateTime, Timedelta } from '../datetime/types.ts';
import { REQUIRED, bindArguments } from '../python/arguments.ts';
import { makeDict } from '../python/mapping.ts';
import { compareForOrder, iterate } from '../python/semantics.ts';
import { Callable, floatValue, isFloat, isInt, isNumeric, Namespace, PyFloat, typeName } from '../values.ts';
import type { Runtime } from './runtime.ts';

/**
 * The CDK's macros and the Jinja globals its environment keeps (`dict`, `namespace`; `range` is
 * removed). `now_utc`, `today_utc`, `day_delta` and `today_with_timezone` read the interpolation's clock.
 */
export function createGlobals(runtime: Runtime): Map<string, Callable> {
  const globals = new Map<string, Callable>();
  const define = (name: string, spec: ReadonlyArray<readonly [string, unknown]>, body: (...args: unknown[]) => unknown) => {
    globals.set(name, new Callable(name, (args, kwargs) => body(...bindArguments(name, args, kwargs, spec))));
  };

  define('now_utc', [], () => runtime.now);
  define('today_utc', [], () => runtime.now.date());
  define('today_with_timezone', [['timezone', REQUIRED]], (timezone) => todayIn(runtime.now, timezone));
  define('timestamp', [['dt', REQUIRED]], (dt) => {
    if (typeof dt === 'boolean' || isInt(dt)) return Number(dt);
    if (isFloat(dt)) return Math.trunc(floatValue(dt));
    return new PyFloat(strToDatetime(dt).timestamp());
  });
  define('str_to_datetime', [['s', REQUIRED]], (s) => strToDatetime(s));
  define('day_delta', [
    ['num_days', REQUIRED],
    ['format', '%Y-%m-%dT%H:%M:%S.%f%z'],
  ], (days, format) => {
    if (!isNumeric(days)) throw new PyTypeError(`unsupported type for timedelta days component: ${typeName(days)}`);
    return strftime(runtime.now.plus(Timedelta.of({ days: floatValue(days) })), requireString(format, 'format'));
  });
  define('duration', [['datestring', REQUIRED]], (text) => parseIsoDuration(requireString(text, 'duration')));
  define('format_datetime', [
    ['dt', REQUIRED],
    ['format', REQUIRED],
    ['input_format', null],
  ], (dt, format, inputFormat) => formatDatetimeMacro(dt, requireString(format, 'format'), inputFormat));
  globals.set('max', new Callable('max', (args, kwargs) => extreme('max', args, kwargs, runtime)));
  globals.set('min', new Callable('min', (args, kwargs) => extreme('min', args, kwargs, runtime)));
  define('sanitize_url', [['value', REQUIRED]], (value) => quotePlus(requireString(value, 'sanitize_url')));
  define('camel_case_to_snake_case', [['value', REQUIRED]], (value) =>
    requireString(value, 'camel_case_to_snake_case')
      .replace(/(?<!^)(?=[A-Z])/g, '_')
      .toLowerCase());
  define('generate_uuid', [], () => randomUUID());

  globals.set(
    'dict',
    new Callable('dict', (args, kwargs) => {
      if (args.length) throw new PyTypeError('dict() takes keyword arguments only here');
      return makeDict(kwargs);
    }),
  );
  globals.set(
    'namespace',
    new Callable('namespace', (args, kwargs) => {
      if (args.length) throw new PyTypeError('namespace() takes keyword arguments only here');
      const namespace = new Namespace();
      for (const [key, value] of kwargs) namespace.attributes.set(key, value);
      return namespace;
    }),
  );
  // Jinja's other default globals, present in the CDK but of no use to a manifest.
  for (const name of ['lipsum', 'cycler', 'joiner']) {
    globals.set(
      name,
      new Callable(name, () => {
        throw new RenderError(`${name}() is not supported`);
      }),
    );
  }
  return globals;
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new PyTypeError(`${what} must be a string, not ${typeName(value)}`);
  return value;
}

/** The CDK's `str_to_datetime`: dateutil's isoparse, naive read as UTC, the result in UTC. */
function strToDatetime(value: unknown): PyDateTime {
  const parsed = isoparse(requireString(value, 'the datetime'));
  return parsed.withOffset(0);
}

function formatDatetimeMacro(dt: unknown, format: string, inputFormat: unknown): string {
  // A datetime is formatted with plain strftime; anything else is parsed first and goes through DatetimeParser.
  if (dt instanceof PyDateTime) return strftime(dt, format);
  let parsed: PyDateTime;
  if (isInt(dt) || typeof dt === 'boolean') parsed = parseDatetime(Number(dt), inputFormat === null ? '%s' : requireString(inputFormat, 'input_format'));
  else if (inputFormat !== null) parsed = strptime(requireString(dt, 'the datetime'), requireString(inputFormat, 'input_format'));
  else parsed = strToDatetime(dt);
  return formatDatetime(parsed.aware ? parsed : parsed.withOffset(0), format);
}

/** Python's builtin max/min: one iterable argument, or several arguments. */
function extreme(which: 'max' | 'min', args: unknown[], kwargs: Map<string, unknown>, runtime: Runtime): unknown {
  if (kwargs.size) throw new PyTypeError(`${which}() keyword arguments are not supported`);
  if (args.length === 0) throw new PyTypeError(`${which} expected at least 1 argument, got 0`);
  const candidates = args.length === 1 ? iterate(args[0], runtime.budget) : args;
  if (candidates.length === 0) throw new RenderError(`${which}() arg is an empty sequence`);
  runtime.budget.tick(candidates.length);
  return candidates.reduce((best, item) => {
    const order = compareForOrder(item, best, which === 'max' ? '>' : '<', runtime.budget);
    return (which === 'max' ? order > 0 : order < 0) ? item : best;
  });
}

/** The date now in an IANA time zone (pytz's zones; Intl knows the same database). */
function todayIn(now: PyDateTime, timezone: unknown): PyDate {
  const zone = requireString(timezone, 'the time zone');
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(new Date(now.seconds * 1000));
  } catch {
    throw new RenderError('unknown time zone');
  }
  const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value);
  return PyDate.of(part('year'), part('month'), part('day'));
}

/** Python's `urllib.parse.quote_plus`: only `A-Za-z0-9_.-~` kept, spaces as `+`. */
function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
