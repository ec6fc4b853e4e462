import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads one of the official upstream specs. They live in `shared/specs` beside the repository, as in
 * the workplace and CI's checkout; a checkout nested deeper finds them in the nearest ancestor that
 * has them, and an environment variable may point anywhere else.
 */
export function readSharedSpec<T>(fileName: string, envVar: string): T {
  const candidates = [process.env[envVar], ...ancestorSpecPaths(fileName)].filter((p): p is string => typeof p === 'string' && p !== '');
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${fileName} not found; looked in: ${candidates.join(', ')} (set ${envVar})`);
  return JSON.parse(readFileSync(found, 'utf8')) as T;
}

/** `<dir>/shared/specs/<file>` for every directory above the repository, nearest first. */
function ancestorSpecPaths(fileName: string): string[] {
  const paths: string[] = [];
  let dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  for (;;) {
    paths.push(join(dir, 'shared', 'specs', fileName));
    const parent = dirname(dir);
    if (parent === dir) return paths;
    dir = parent;
  }
}
