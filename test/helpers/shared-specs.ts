import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads one of the official upstream specs. They live in shared/specs beside the repository (as in
 * CI's checkout); an environment variable may point elsewhere.
 */
export function readSharedSpec<T>(fileName: string, envVar: string): T {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env[envVar], resolve(here, '../../../shared/specs', fileName)].filter((p): p is string => typeof p === 'string' && p !== '');
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${fileName} not found; looked in: ${candidates.join(', ')} (set ${envVar})`);
  return JSON.parse(readFileSync(found, 'utf8')) as T;
}
