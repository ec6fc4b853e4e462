import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleModule } from './bundle-module.mjs';

/**
 * What Node answers for TypeScript it will not run: no loader at all (Node 20), or, where Node strips
 * types itself (22.18 and later), a package under node_modules or syntax beyond type annotations.
 */
const NOT_LOADABLE_TYPESCRIPT = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX']);

/**
 * Imports a module by specifier (a package name or a file URL). Where the process has no TypeScript
 * loader (the server runs bundled, scripts/run-bundled.mjs) and the module is TypeScript, it is
 * bundled into plain JavaScript first (bundle-module.mjs) and that is imported.
 */
export async function importModule(specifier: string): Promise<Record<string, unknown>> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    if (!NOT_LOADABLE_TYPESCRIPT.has(String((error as NodeJS.ErrnoException).code))) throw error;
    const file = fileURLToPath(specifier.startsWith('file:') ? specifier : import.meta.resolve(specifier));
    return (await import(pathToFileURL(await bundleModule(file, 'plugboard-connectors')).href)) as Record<string, unknown>;
  }
}
