/**
 * The sandbox world has a fixed "now" so that seeded data (and therefore every response) is the same
 * on every run, whatever the wall clock says.
 */
export const SANDBOX_EPOCH = '2025-03-14T12:00:00.000Z';
export const EPOCH_MS = Date.parse(SANDBOX_EPOCH);

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Drive writes times as RFC 3339 UTC with milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Parses the RFC 3339 forms Drive accepts in queries ('2024-01-01', '2024-01-01T10:00:00',
 * with optional fraction and Z or ±hh:mm; no zone means UTC). NaN when malformed.
 */
export function parseRfc3339(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?([Zz]|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!m) return Number.NaN;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return Number.NaN;
  const ms = frac === '' ? 0 : Math.floor(Number(`0${frac}`) * 1000);
  let t = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s), ms);
  if (new Date(t).getUTCDate() !== day) return Number.NaN; // e.g. February 30th
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    t -= sign * (zh * 60 + zm) * MINUTE;
  }
  return t;
}
