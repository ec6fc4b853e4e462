/**
 * What an OAuth 2.0 sandbox needs once, whatever the provider: clients, grants and tokens with their
 * lifetimes, PKCE, the consent page and its flow, stats and control endpoints. Each sandbox adds its
 * provider's wire format (paths, parameters, answers, error codes) on top.
 */
export * from './authority.ts';
export * from './authorize.ts';
export * from './book.ts';
export * from './browser.ts';
export * from './clients.ts';
export * from './control.ts';
export * from './http.ts';
export * from './page.ts';
export * from './pkce.ts';
export * from './sandbox.ts';
export * from './stats.ts';
