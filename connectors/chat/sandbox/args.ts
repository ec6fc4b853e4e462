/**
 * Typed reads of request arguments. Query and form values are always strings ("true", "0", "200"),
 * JSON bodies carry native types; Slack accepts both, so every getter coerces.
 */
export class Args {
  constructor(private readonly raw: Readonly<Record<string, unknown>>) {}

  has(name: string): boolean {
    const v = this.raw[name];
    return v !== undefined && v !== null && v !== '';
  }

  /** The value as a string; undefined when absent or empty. JSON arrays/objects are re-serialised. */
  str(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v === '' ? undefined : v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return JSON.stringify(v);
  }

  /** Raw value, for arguments that JSON callers may send structured (blocks, attachments). */
  value(name: string): unknown {
    return this.raw[name];
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw[name];
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    if (typeof v !== 'string' || v === '') return fallback;
    const s = v.toLowerCase();
    if (s === 'true' || s === '1' || s === 'yes') return true;
    if (s === 'false' || s === '0' || s === 'no') return false;
    return fallback;
  }

  /** Integer value; undefined when absent or not an integer (Slack then applies the default). */
  int(name: string): number | undefined {
    const v = this.raw[name];
    if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
    if (typeof v !== 'string' || !/^\s*-?\d+\s*$/.test(v)) return undefined;
    return Number.parseInt(v, 10);
  }
}
