/// <reference types="node" />
// The sandbox kit and seeded random use Node's types (http, Buffer): the reference brings them from
// Plugboard's own install, so a plugin importing `plugboard/sdk` type-checks without @types/node of its own.
/** The connector SDK: everything a connector package may import from core. */
export * from './types.ts';
export * from './define.ts';
export * from './search.ts';
export * from './sandbox-kit.ts';
export * from './seeded-random.ts';
