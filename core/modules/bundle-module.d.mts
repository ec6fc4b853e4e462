/** See bundle-module.mjs: a TypeScript module bundled into a plain JavaScript file under node_modules/.cache/<cache>; its path. */
export function bundleModule(file: string, cache: string, accept?: (code: string) => boolean): Promise<string>;
/** Marks a bundle as in use, so that pruning spares it; false when the file is gone. */
export function markUsed(script: string): Promise<boolean>;
