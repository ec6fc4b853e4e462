import { DriveError, outOfRange } from './errors.ts';

/**
 * Typed reads of query parameters with Google's coercion rules: booleans are "true"/"false"
 * (case-insensitive), integers are decimal, an empty value counts as absent, and values that do
 * not parse are 400 "invalid" with the parameter as location.
 */
export class QueryParams {
  constructor(private readonly search: URLSearchParams) {}

  /** The value, or undefined when absent or empty. */
  str(name: string): string | undefined {
    const v = this.search.get(name);
    return v === null || v === '' ? undefined : v;
  }

  has(name: string): boolean {
    return this.search.has(name);
  }

  bool(name: string, fallback = false): boolean {
    const v = this.str(name);
    if (v === undefined) return fallback;
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw new DriveError(400, 'invalid', `Invalid value '${v}'. Valid values are: [true, false]`, { location: name, locationType: 'parameter' });
  }

  int(name: string, min: number, max: number): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!/^[+-]?\d{1,15}$/.test(v.trim())) throw outOfRange(name, v, min, max);
    return Number.parseInt(v, 10);
  }

  /**
   * pageSize: below the minimum is 400 (Drive's range message); above the maximum is coerced to it,
   * as the current Drive reference states for every list method ("values above N will be coerced").
   */
  pageSize(fallback: number, max: number): number {
    const n = this.int('pageSize', 1, max);
    if (n === undefined) return fallback;
    if (n < 1) throw outOfRange('pageSize', String(this.str('pageSize')), 1, max);
    return Math.min(n, max);
  }

  /** supportsAllDrives, or its deprecated twin supportsTeamDrives. */
  supportsAllDrives(): boolean {
    return this.bool('supportsAllDrives') || this.bool('supportsTeamDrives');
  }

  includeItemsFromAllDrives(): boolean {
    return this.bool('includeItemsFromAllDrives') || this.bool('includeTeamDriveItems');
  }

  driveId(): string | undefined {
    return this.str('driveId') ?? this.str('teamDriveId');
  }
}
