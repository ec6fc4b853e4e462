/**
 * The CDK's DatetimeBasedCursor, as its concurrent cursor runs it for declarative streams today:
 * - the sync starts at the saved state's value (when it is not before `start_datetime`), else at
 *   `start_datetime`; slices run from that start minus `lookback_window` (never before
 *   `start_datetime`) to `end_datetime` (default: now), `step` long, each ending `cursor_granularity`
 *   before the next begins, the last one ending at the end itself; without a step, one slice;
 * - slice bounds, request options and the state are written in `datetime_format`; record values and
 *   the saved state are read with `cursor_datetime_formats`, then `datetime_format`;
 * - the state is `{<cursor_field>: the latest record cursor value seen}` (at least the sync start),
 *   other keys of the saved state kept;
 * - `is_client_side_incremental` drops records outside [sync start, end]; `is_data_feed` stops the
 *   pagination at the first page whose last record is before the sync start.
 */
import type { DatetimeBasedCursor, MinMaxDatetime, RequestOption } from '../model.ts';
import { compare, type Duration, earlier, formatWith, isZero, later, nowOf, parseDuration, parseWithFormats, type PyDateTime, shift } from './datetimes.ts';
import { ManifestReadError } from './read-errors.ts';
import type { ReadRuntime } from './read-runtime.ts';
import { injectOption, pyText, type RequestParts } from './request-parts.ts';
import type { StreamRecord } from './record-selector.ts';

export type CursorSlice = Record<string, string>;

export class DatetimeCursor {
  readonly field: string;
  readonly startKey: string;
  readonly endKey: string;
  private readonly format: string;
  private readonly parseFormats: string[];
  private readonly start: PyDateTime;
  private readonly step: Duration | undefined;
  private readonly granularity: Duration | undefined;
  private readonly lookback: Duration | undefined;

  constructor(
    readonly component: DatetimeBasedCursor,
    private readonly runtime: ReadRuntime,
  ) {
    const context = this.context();
    const text = (template: string | undefined, fallback: string) =>
      template === undefined || template === null || template === '' ? fallback : pyText(runtime.templates.string(template, context));
    this.field = text(component.cursor_field, '');
    if (this.field === '') throw new ManifestReadError('DatetimeBasedCursor needs a cursor_field');
    this.format = component.datetime_format;
    this.parseFormats = [...(component.cursor_datetime_formats ?? []), this.format];
    this.startKey = text(component.partition_field_start, 'start_time');
    this.endKey = text(component.partition_field_end, 'end_time');
    const duration = (template: string | undefined) => {
      const value = template === undefined || template === null ? '' : text(template, '');
      if (value === '' || value === 'None') return undefined;
      try {
        return parseDuration(value);
      } catch {
        throw new ManifestReadError(`DatetimeBasedCursor: ${JSON.stringify(value)} is not an ISO 8601 duration`);
      }
    };
    this.step = duration(component.step);
    this.granularity = duration(component.cursor_granularity);
    if ((this.step === undefined) !== (this.granularity === undefined)) {
      throw new ManifestReadError('DatetimeBasedCursor takes step and cursor_granularity together, or neither');
    }
    this.lookback = duration(component.lookback_window);
    this.start = this.datetime(component.start_datetime, 'start_datetime');
  }

  private context() {
    return { config: this.runtime.config, parameters: this.component.$parameters ?? {} };
  }

  /** A MinMaxDatetime (or a plain template): its value in its own format (default the cursor's), within its bounds. */
  private datetime(field: string | MinMaxDatetime, name: string): PyDateTime {
    const spec: MinMaxDatetime = typeof field === 'string' ? { type: 'MinMaxDatetime', datetime: field } : field;
    const format = spec.datetime_format || this.format || '%Y-%m-%dT%H:%M:%S.%f%z';
    const context = { config: this.runtime.config, parameters: spec.$parameters ?? this.component.$parameters ?? {} };
    const read = (template: string, what: string) => {
      const value = pyText(this.runtime.templates.string(template, context));
      const parsed = parseWithFormats(value, [format]);
      if (!parsed)
        throw new ManifestReadError(`DatetimeBasedCursor: the ${what} does not match its format ${JSON.stringify(format)}`, 'manifest_config_invalid');
      return parsed;
    };
    let value = read(spec.datetime, name);
    if (spec.min_datetime) {
      const min = pyText(this.runtime.templates.string(spec.min_datetime, context));
      if (min !== '') value = later(value, read(spec.min_datetime, `${name}'s min_datetime`));
    }
    if (spec.max_datetime) {
      const max = pyText(this.runtime.templates.string(spec.max_datetime, context));
      if (max !== '') value = earlier(value, read(spec.max_datetime, `${name}'s max_datetime`));
    }
    return value;
  }

  /** The end of the sync: `end_datetime`, else now (evaluated once per run, when its slices are made). */
  private end(): PyDateTime {
    const field = this.component.end_datetime;
    return field === undefined || field === null ? nowOf(this.runtime.clock) : this.datetime(field, 'end_datetime');
  }

  parse(value: unknown): PyDateTime | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    return parseWithFormats(typeof value === 'number' ? value : String(value), this.parseFormats);
  }

  formatValue(value: PyDateTime): string {
    return formatWith(value, this.format);
  }

  /** A run of the cursor over one partition (or the whole stream) from its saved state; `extraLookbackSeconds` widens the lookback (a per-partition state's). */
  open(saved: Record<string, unknown> | undefined, extraLookbackSeconds = 0): CursorRun {
    let syncStart = this.start;
    const savedValue = saved?.[this.field];
    if (savedValue !== undefined && savedValue !== null) {
      const parsed = this.parse(savedValue);
      if (!parsed) throw new ManifestReadError(`The saved state of ${this.field} does not match the cursor's datetime formats`, 'manifest_state_invalid');
      if (compare(parsed, this.start) >= 0) syncStart = parsed;
    }
    return new CursorRun(this, saved ?? {}, syncStart, this.end(), this.lowerBound(syncStart, extraLookbackSeconds));
  }

  private lowerBound(syncStart: PyDateTime, extraLookbackSeconds: number): PyDateTime {
    let lower = this.lookback && !isZero(this.lookback) ? shift(syncStart, this.lookback, -1) : syncStart;
    if (extraLookbackSeconds > 0) lower = earlier(lower, shift(syncStart, parseDuration(`PT${extraLookbackSeconds}S`), -1));
    return later(lower, this.start);
  }

  /** The concurrent cursor's `_split_per_slice_range` from `lower` to the end (the upper bound is the end). */
  *slices(lower: PyDateTime, upper: PyDateTime): Generator<CursorSlice> {
    if (compare(lower, upper) >= 0 || compare(upper, this.start) < 0) return;
    const make = (from: PyDateTime, to: PyDateTime): CursorSlice => ({ [this.startKey]: this.formatValue(from), [this.endKey]: this.formatValue(to) });
    if (!this.step || compare(shift(lower, this.step), upper) >= 0) {
      yield make(lower, upper);
      return;
    }
    let current = lower;
    for (;;) {
      const next = earlier(shift(current, this.step), upper);
      const reachedEnd = compare(next, upper) >= 0;
      yield make(current, reachedEnd || !this.granularity ? next : shift(next, this.granularity, -1));
      if (reachedEnd) return;
      // A step that does not move (P0D) would never end.
      if (compare(next, current) <= 0) throw new ManifestReadError('DatetimeBasedCursor: the step does not move the slices forward');
      current = next;
    }
  }

  requestOptions(slice: CursorSlice): Partial<RequestParts>[] {
    const options: Partial<RequestParts>[] = [];
    const inject = (option: RequestOption | undefined, value: string | undefined) => {
      if (option) options.push(injectOption(option, value ?? null, this.runtime.templates, this.runtime.config));
    };
    inject(this.component.start_time_option, slice[this.startKey]);
    inject(this.component.end_time_option, slice[this.endKey]);
    return options;
  }
}

/** One cursor's progress through a read: its slices, the latest record value it saw, its state. */
export class CursorRun {
  private latest: PyDateTime;

  constructor(
    readonly cursor: DatetimeCursor,
    private readonly saved: Record<string, unknown>,
    readonly syncStart: PyDateTime,
    readonly end: PyDateTime,
    readonly lower: PyDateTime,
  ) {
    this.latest = syncStart;
  }

  slices(): Generator<CursorSlice> {
    return this.cursor.slices(this.lower, this.end);
  }

  /** The record's cursor value, read with the cursor's formats; undefined when the record has none. */
  valueOf(record: StreamRecord): PyDateTime | undefined {
    const raw = record[this.cursor.field];
    if (raw === undefined || raw === null || raw === '') return undefined;
    const parsed = this.cursor.parse(raw);
    if (!parsed) throw new ManifestReadError(`A record's ${this.cursor.field} does not match the cursor's datetime formats`, 'manifest_record_invalid');
    return parsed;
  }

  observe(value: PyDateTime | undefined): void {
    if (value && compare(value, this.latest) > 0) this.latest = value;
  }

  /** The concurrent cursor's should_be_synced: a record without a cursor value is kept. */
  inRange(value: PyDateTime | undefined): boolean {
    return value === undefined || (compare(value, this.syncStart) >= 0 && compare(value, this.end) <= 0);
  }

  state(): Record<string, unknown> {
    return { ...this.saved, [this.cursor.field]: this.cursor.formatValue(this.latest) };
  }
}
