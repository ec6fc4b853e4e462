import { h } from './dom.ts';

/** The browser's date control for a `date` string, or its date and time control (UTC, to the second) for a `date-time`. */
export interface DateControl {
  input: HTMLInputElement;
  /** What to send: the schema's wire format (`YYYY-MM-DD`, `YYYY-MM-DDTHH:mm:ssZ`), or undefined when empty. */
  read(): string | undefined;
  /** Said after the field's title. */
  title: string;
  /** The schema's description with the format it gives the server taken out, and the control's own format said instead. */
  hint: string;
}

/** A run of text spelling a wire format, such as `YYYY-MM-DDTHH:mm:ssZ`, with the separator before it. */
const WIRE_FORMAT = /[,;]?\s*[\w:./-]*YYYY[\w:./-]*/gi;

export function dateField(format: 'date' | 'date-time', value: unknown, description: string | undefined): DateControl {
  const withTime = format === 'date-time';
  const input = h('input', withTime ? { type: 'datetime-local', step: 1 } : { type: 'date' });
  const stored = typeof value === 'string' ? value : '';
  input.value = withTime ? utcInputValue(stored) : stored.slice(0, 10);
  const said = (description ?? '').replace(WIRE_FORMAT, '').trim();
  return {
    input,
    read: () => (input.value === '' ? undefined : withTime ? toUtcDateTime(input.value) : input.value),
    title: withTime ? ' (UTC)' : '',
    hint: `${said ? `${said.replace(/\.$/, '')}. ` : ''}Enter it as ${controlFormat(withTime)}.`,
  };
}

/** What each part of a formatted date reads as, in the hint. */
const PLACEHOLDERS: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {
  year: 'YYYY',
  month: 'MM',
  day: 'DD',
  minute: 'mm',
  second: 'ss',
  dayPeriod: 'AM/PM',
};

/**
 * The format the browser's control shows, e.g. `MM/DD/YYYY, hh:mm:ss AM/PM` in American English: it
 * lays its parts out as the browser's locale formats a date, which is what this reads.
 */
function controlFormat(withTime: boolean): string {
  const format = new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : {}),
  });
  const twelveHours = format.resolvedOptions().hour12 === true;
  return format
    .formatToParts(new Date(Date.UTC(2024, 0, 31, 13, 5, 9)))
    .map((part) => (part.type === 'hour' ? (twelveHours ? 'hh' : 'HH') : (PLACEHOLDERS[part.type] ?? part.value)))
    .join('');
}

/** A stored date-time as the input shows it: its UTC wall-clock time, whatever offset it was written with. */
function utcInputValue(value: string): string {
  const time = new Date(value);
  return value === '' || Number.isNaN(time.getTime()) ? '' : time.toISOString().slice(0, 19);
}

/** `YYYY-MM-DDTHH:mm[:ss]` from a datetime-local input, read as UTC: `YYYY-MM-DDTHH:mm:ssZ`. */
function toUtcDateTime(local: string): string {
  return `${local.length === 16 ? `${local}:00` : local.slice(0, 19)}Z`;
}
