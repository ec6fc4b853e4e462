/**
 * Slack message timestamps ("1700000000.000100") held as integer microseconds: exact ordering and
 * arithmetic without float rounding (1.7e15 is well inside Number.MAX_SAFE_INTEGER).
 */

export function formatTs(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros - seconds * 1_000_000;
  return `${seconds}.${String(fraction).padStart(6, '0')}`;
}

/** Parses "1700000000", "1700000000.1" or "1700000000.000100"; null when not a non-negative decimal. */
export function parseTs(value: unknown): number | null {
  let s: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    s = String(value);
    if (s.includes('e')) return null;
  } else if (typeof value === 'string') {
    s = value.trim();
  } else {
    return null;
  }
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return null;
  const seconds = Number(m[1]);
  // Slack keeps microsecond precision; digits beyond that are ignored.
  const fraction = Number(`${m[2] ?? ''}000000`.slice(0, 6));
  const micros = seconds * 1_000_000 + fraction;
  return Number.isSafeInteger(micros) ? micros : null;
}
