import { RenderError } from '../errors.ts';
import { IsoDuration, Timedelta } from './types.ts';

const PERIOD =
  /^([+-])?P(?!$)(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?=\d)(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/**
 * isodate's `parse_duration` (the CDK's `duration` macro and the cursors' step, granularity and
 * lookback): a timedelta, or a Duration when years or months are not zero. Any fraction is allowed.
 */
export function parseIsoDuration(text: string): Timedelta | IsoDuration {
  const match = PERIOD.exec(text);
  if (!match) throw new RenderError('the text is not an ISO 8601 duration');
  const number = (index: number) => Number((match[index] ?? '0').replace(',', '.'));
  const sign = match[1] === '-' ? -1 : 1;
  const [years, months, weeks, days, hours, minutes, seconds] = [2, 3, 4, 5, 6, 7, 8].map(number) as [number, number, number, number, number, number, number];
  const tdelta = Timedelta.of({ days: sign * (weeks * 7 + days), seconds: sign * (hours * 3600 + minutes * 60 + seconds) });
  if (years === 0 && months === 0) return tdelta;
  return new IsoDuration(sign * years, sign * months, tdelta);
}
