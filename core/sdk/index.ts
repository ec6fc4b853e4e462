/** The connector SDK: everything a connector package may import from Plugboard. */
export * from './types.ts';
export * from './define.ts';
export * from './search.ts';
export * from './manifest-package.ts';
