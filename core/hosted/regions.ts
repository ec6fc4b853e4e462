/** The region ids a workspace may be created in; a region applies only when a workspace is created. */
export const REGIONS = {
  US: '645a183f-b12b-4c6e-8ad3-99e165603450',
  EU: 'b9e48d61-f082-4a14-a8d0-799a907938cb',
} as const;

export const DEFAULT_REGION_ID = REGIONS.US;
export const REGION_IDS: string[] = Object.values(REGIONS);
