export * from './types.ts';
export { createStore, type StoreOptions } from './create-store.ts';
