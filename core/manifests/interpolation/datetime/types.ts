import { RenderError } from '../errors.ts';
import { civilFromDays, daysFromCivil, daysInMonth, MAX_YEAR, MIN_YEAR, SECONDS_PER_DAY, weekdayOfDays } from './calendar.ts';

/*
 * Python's date, datetime, timedelta and isodate's Duration, with the same printing and arithmetic.
 * Each carries `pyTypeName` for messages and `typeName()`.
 */

const MICROS_PER_SECOND = 1_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function checkYear(year: number): void {
  if (year < MIN_YEAR || year > MAX_YEAR) throw new RenderError(`year ${year} is out of range`);
}

/** Python's timedelta: a signed count of microseconds, printed as `1 day, 0:00:00`. */
export class Timedelta {
  readonly pyTypeName = 'timedelta';
  constructor(readonly micros: bigint) {}

  static of(parts: { days?: number; seconds?: number; microseconds?: number }): Timedelta {
    const total = (parts.days ?? 0) * 86_400_000_000 + (parts.seconds ?? 0) * 1_000_000 + (parts.microseconds ?? 0);
    if (!Number.isFinite(total)) throw new RenderError('timedelta value out of range');
    // Python rounds a fractional microsecond half to even.
    return new Timedelta(BigInt(roundHalfEven(total)));
  }

  /** Python's normalised (days, seconds, microseconds): days carries the sign. */
  get parts(): { days: number; seconds: number; microseconds: number } {
    let days = this.micros / MICROS_PER_DAY;
    let rest = this.micros % MICROS_PER_DAY;
    if (rest < 0n) {
      days -= 1n;
      rest += MICROS_PER_DAY;
    }
    return { days: Number(days), seconds: Number(rest / MICROS_PER_SECOND), microseconds: Number(rest % MICROS_PER_SECOND) };
  }

  totalSeconds(): number {
    return Number(this.micros) / 1_000_000;
  }

  toString(): string {
    const { days, seconds, microseconds } = this.parts;
    const clock = `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}${microseconds ? `.${pad(microseconds, 6)}` : ''}`;
    return days === 0 ? clock : `${days} day${Math.abs(days) === 1 ? '' : 's'}, ${clock}`;
  }

  repr(): string {
    const { days, seconds, microseconds } = this.parts;
    const args = [days && `days=${days}`, seconds && `seconds=${seconds}`, microseconds && `microseconds=${microseconds}`].filter(Boolean);
    return `datetime.timedelta(${args.length ? args.join(', ') : '0'})`;
  }
}

export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** isodate's Duration: years and months on top of a timedelta (`P1M`, `P1Y2M3D`). */
export class IsoDuration {
  readonly pyTypeName = 'Duration';
  constructor(
    readonly years: number,
    readonly months: number,
    readonly tdelta: Timedelta,
  ) {}

  negate(): IsoDuration {
    return new IsoDuration(-this.years, -this.months, new Timedelta(-this.tdelta.micros));
  }

  toString(): string {
    const parts: string[] = [];
    if (this.years) parts.push(`${this.years} year${this.years <= 1 ? '' : 's'}`);
    if (this.months) parts.push(`${this.months} month${this.months <= 1 ? '' : 's'}`);
    parts.push(this.tdelta.toString());
    return parts.join(', ');
  }
}

/** Python's date. */
export class PyDate {
  readonly pyTypeName = 'date';
  readonly year: number;
  readonly month: number;
  readonly day: number;

  constructor(readonly days: number) {
    const civil = civilFromDays(days);
    checkYear(civil.year);
    this.year = civil.year;
    this.month = civil.month;
    this.day = civil.day;
  }

  static of(year: number, month: number, day: number): PyDate {
    checkYear(year);
    if (month < 1 || month > 12) throw new RenderError('month must be in 1..12');
    if (day < 1 || day > daysInMonth(year, month)) throw new RenderError('day is out of range for month');
    return new PyDate(daysFromCivil(year, month, day));
  }

  weekday(): number {
    return weekdayOfDays(this.days);
  }

  isoformat(): string {
    return `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
  }

  toString(): string {
    return this.isoformat();
  }

  repr(): string {
    return `datetime.date(${this.year}, ${this.month}, ${this.day})`;
  }
}

/**
 * Python's datetime. `seconds` counts from the epoch: the instant for an aware datetime, the wall
 * clock read as UTC for a naive one; `offset` is seconds east of UTC, or null when naive.
 */
export class PyDateTime {
  readonly pyTypeName = 'datetime';
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Day number of the wall-clock date. */
  readonly localDays: number;

  constructor(
    readonly seconds: number,
    readonly microsecond: number,
    readonly offset: number | null,
  ) {
    const local = seconds + (offset ?? 0);
    this.localDays = Math.floor(local / SECONDS_PER_DAY);
    const civil = civilFromDays(this.localDays);
    checkYear(civil.year);
    const clock = local - this.localDays * SECONDS_PER_DAY;
    this.year = civil.year;
    this.month = civil.month;
    this.day = civil.day;
    this.hour = Math.floor(clock / 3600);
    this.minute = Math.floor(clock / 60) % 60;
    this.second = clock % 60;
  }

  /** From wall-clock fields in the given offset (null: naive). */
  static of(
    fields: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number; microsecond?: number },
    offset: number | null,
  ): PyDateTime {
    const { year, month, day, hour = 0, minute = 0, second = 0, microsecond = 0 } = fields;
    checkYear(year);
    if (month < 1 || month > 12) throw new RenderError('month must be in 1..12');
    if (day < 1 || day > daysInMonth(year, month)) throw new RenderError('day is out of range for month');
    if (hour > 23 || minute > 59 || second > 59 || microsecond > 999_999) throw new RenderError('time field out of range');
    const local = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;
    return new PyDateTime(local - (offset ?? 0), microsecond, offset);
  }

  static fromMicros(micros: bigint, offset: number | null): PyDateTime {
    let seconds = micros / MICROS_PER_SECOND;
    let micro = micros % MICROS_PER_SECOND;
    if (micro < 0n) {
      seconds -= 1n;
      micro += MICROS_PER_SECOND;
    }
    return new PyDateTime(Number(seconds), Number(micro), offset);
  }

  get epochMicros(): bigint {
    return BigInt(this.seconds) * MICROS_PER_SECOND + BigInt(this.microsecond);
  }

  get aware(): boolean {
    return this.offset !== null;
  }

  /** Python's `timestamp()`: a naive datetime is read as UTC (the CDK's containers run in UTC). */
  timestamp(): number {
    return this.seconds + this.microsecond / 1_000_000;
  }

  weekday(): number {
    return weekdayOfDays(this.localDays);
  }

  date(): PyDate {
    return new PyDate(this.localDays);
  }

  plus(delta: Timedelta): PyDateTime {
    return PyDateTime.fromMicros(this.epochMicros + delta.micros, this.offset);
  }

  withOffset(offset: number | null): PyDateTime {
    return new PyDateTime(this.seconds, this.microsecond, offset);
  }

  isoformat(separator = 'T'): string {
    const date = `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
    const time = `${pad(this.hour, 2)}:${pad(this.minute, 2)}:${pad(this.second, 2)}${this.microsecond ? `.${pad(this.microsecond, 6)}` : ''}`;
    return `${date}${separator}${time}${this.offset === null ? '' : formatOffset(this.offset, ':')}`;
  }

  toString(): string {
    return this.isoformat(' ');
  }

  repr(): string {
    const fields = [this.year, this.month, this.day, this.hour, this.minute];
    if (this.second || this.microsecond) fields.push(this.second);
    if (this.microsecond) fields.push(this.microsecond);
    const tz =
      this.offset === null
        ? ''
        : this.offset === 0
          ? ', tzinfo=datetime.timezone.utc'
          : `, tzinfo=datetime.timezone(${new Timedelta(BigInt(this.offset) * MICROS_PER_SECOND).repr()})`;
    return `datetime.datetime(${fields.join(', ')}${tz})`;
  }
}

/** `+HHMM` (strftime's %z, separator '') or `+HH:MM` (isoformat); seconds only when there are some. */
export function formatOffset(offset: number, separator: string): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hours = Math.floor(abs / 3600);
  const minutes = Math.floor(abs / 60) % 60;
  const seconds = abs % 60;
  return `${sign}${pad(hours, 2)}${separator}${pad(minutes, 2)}${seconds ? `${separator}${pad(seconds, 2)}` : ''}`;
}

/** isodate's Duration added to a date or datetime: months first on the calendar (day clamped), then the timedelta. */
export function addMonths<T extends PyDate | PyDateTime>(value: T, years: number, months: number): T {
  if (!Number.isInteger(years) || !Number.isInteger(months)) throw new RenderError('fractional years or months cannot be added to a date');
  const monthIndex = value.month - 1 + months;
  const year = value.year + years + Math.floor(monthIndex / 12);
  const month = (((monthIndex % 12) + 12) % 12) + 1;
  checkYear(year);
  const day = Math.min(value.day, daysInMonth(year, month));
  if (value instanceof PyDateTime) {
    return PyDateTime.of({ year, month, day, hour: value.hour, minute: value.minute, second: value.second, microsecond: value.microsecond }, value.offset) as T;
  }
  return PyDate.of(year, month, day) as T;
}
