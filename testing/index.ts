/// <reference types="node" />
// The kit uses Node's types (http, Buffer): the reference brings them from Plugboard's own install, so
// a plugin's tests importing `plugboard/testing` type-check without @types/node of their own.
/**
 * Test-only tools for connector authors: what a sandbox needs (a listening helper, seeded
 * randomness). Nothing in `plugboard` or `plugboard/sdk` imports this, so a production install never
 * loads it or its dependencies.
 */
export * from './sandbox-kit.ts';
export * from './seeded-random.ts';
export * from './connector-kit.ts';
/** OAuth 2.0 mechanics for a sandbox of a provider that issues tokens (grants, PKCE, consent page, stats). */
export * as oauth from './oauth/index.ts';
/** A local REST API with every pagination style, substreams, date windows and auth kinds: the upstream of manifest tests. */
export * from './rest-upstream/index.ts';
