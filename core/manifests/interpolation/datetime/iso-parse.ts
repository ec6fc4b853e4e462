import { RenderError } from '../errors.ts';
import { Timedelta, PyDateTime } from './types.ts';

/**
 * dateutil's `isoparse` (what the CDK's `str_to_datetime` uses): `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or
 * `YYYYMMDD`, then optionally any one separator character and a time `HH[:MM[:SS[.ffffff]]]` (or
 * without colons), then `Z` or `±HH[:MM]`. Returns a naive datetime when there is no offset.
 */
export function isoparse(text: string): PyDateTime {
  const date = /^(\d{4})(?:(-?)(\d{2})(?:\2(\d{2}))?)?/.exec(text);
  if (!date || (date[2] === '' && date[3] !== undefined && date[4] === undefined)) throw invalid(text);
  const year = Number(date[1]);
  const month = date[3] === undefined ? 1 : Number(date[3]);
  const day = date[4] === undefined ? 1 : Number(date[4]);
  let rest = text.slice(date[0].length);
  if (rest === '') return PyDateTime.of({ year, month, day }, null);
  // A time needs the full date before it, and exactly one separator character.
  if (date[4] === undefined || rest.length < 2) throw invalid(text);
  rest = rest.slice(1);
  const time = /^(\d{2})(?:(:?)(\d{2})(?:\2(\d{2})(?:[.,](\d+))?)?)?(?:(Z|z)|([+-])(\d{2})(?::?(\d{2}))?)?$/.exec(rest);
  if (!time) throw invalid(text);
  let hour = Number(time[1]);
  const minute = Number(time[3] ?? 0);
  const second = Number(time[4] ?? 0);
  const microsecond = time[5] === undefined ? 0 : Number(time[5].slice(0, 6).padEnd(6, '0'));
  let offset: number | null = null;
  if (time[6] !== undefined) offset = 0;
  else if (time[7] !== undefined) {
    const seconds = Number(time[8]) * 3600 + Number(time[9] ?? 0) * 60;
    offset = time[7] === '-' ? -seconds : seconds;
    if (Math.abs(offset) >= 86_400) throw invalid(text);
  }
  // 24:00 is midnight at the end of the day.
  const endOfDay = hour === 24;
  if (endOfDay) {
    if (minute || second || microsecond) throw invalid(text);
    hour = 0;
  }
  if (minute > 59 || second > 59) throw invalid(text);
  const parsed = PyDateTime.of({ year, month, day, hour, minute, second, microsecond }, offset);
  return endOfDay ? parsed.plus(Timedelta.of({ days: 1 })) : parsed;
}

/** The text is data (often config), so the message does not repeat it. */
function invalid(_text: string): RenderError {
  return new RenderError('the text is not an ISO 8601 date');
}
