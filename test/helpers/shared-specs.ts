import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads one of the official upstream specs. They live in `shared/specs` beside the repository, as in
 * the workplace and CI's checkout; a checkout nested deeper finds them in the nearest ancestor that
 * has them, a clone of such a checkout (anywhere, e.g. a temporary folder) beside its origin, and an
 * environment variable may point anywhere else.
 */
export function readSharedSpec<T>(fileName: string, envVar: string): T {
  const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const candidates = [process.env[envVar], ...ancestorSpecPaths(repository, fileName)].filter((p): p is string => typeof p === 'string' && p !== '');
  // Only ask git for the origin when neither the variable nor an ancestor has the spec.
  let found = candidates.find((p) => existsSync(p));
  if (!found) {
    const origin = localOrigin(repository);
    const beside = origin ? ancestorSpecPaths(origin, fileName) : [];
    candidates.push(...beside);
    found = beside.find((p) => existsSync(p));
  }
  if (!found) throw new Error(`${fileName} not found; looked in: ${candidates.join(', ')} (set ${envVar})`);
  return JSON.parse(readFileSync(found, 'utf8')) as T;
}

/** `<dir>/shared/specs/<file>` for every directory above `repository`, nearest first. */
function ancestorSpecPaths(repository: string, fileName: string): string[] {
  const paths: string[] = [];
  let dir = dirname(repository);
  for (;;) {
    paths.push(join(dir, 'shared', 'specs', fileName));
    const parent = dirname(dir);
    if (parent === dir) return paths;
    dir = parent;
  }
}

/** The folder this checkout was cloned from, when it was cloned from a local path. */
function localOrigin(repository: string): string | undefined {
  try {
    const url = execFileSync('git', ['-C', repository, 'config', '--get', 'remote.origin.url'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    return path.startsWith('/') && existsSync(path) ? resolve(path) : undefined;
  } catch {
    return undefined;
  }
}
