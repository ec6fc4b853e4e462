import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleModule } from './bundle-module.mjs';

/**
 * Imports a module by specifier (a package name or a file URL). Where the process has no TypeScript
 * loader (the server runs bundled, scripts/run-bundled.mjs) and the module is TypeScript, it is
 * bundled into plain JavaScript first (bundle-module.mjs) and that is imported.
 */
export async function importModule(specifier: string): Promise<Record<string, unknown>> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    const file = fileURLToPath(specifier.startsWith('file:') ? specifier : import.meta.resolve(specifier));
    return (await import(pathToFileURL(await bundleModule(file, 'plugboard-connectors')).href)) as Record<string, unknown>;
  }
}
