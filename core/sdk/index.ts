/** The connector SDK: everything a connector package may import from core. */
export * from './types.ts';
export * from './define.ts';
export * from './search.ts';
export * from './sandbox-kit.ts';
export * from './seeded-random.ts';
