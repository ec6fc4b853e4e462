import { invalidField } from '../errors.ts';

/** The region ids a workspace may be created in; a region applies only when a workspace is created. */
export const REGIONS = {
  US: '645a183f-b12b-4c6e-8ad3-99e165603450',
  EU: 'b9e48d61-f082-4a14-a8d0-799a907938cb',
} as const;

export const DEFAULT_REGION_ID = REGIONS.US;
export const REGION_IDS: string[] = Object.values(REGIONS);

/** A region id as stored (UUIDs are case-insensitive on input, RFC 9562); an unknown one is a 422 at `loc`. */
export function checkRegionId(regionId: string, loc: Array<string | number>): string {
  const region = regionId.toLowerCase();
  if (!REGION_IDS.includes(region)) throw invalidField(loc, `unknown region; allowed: ${REGION_IDS.join(', ')}`, 'value_error.region');
  return region;
}
