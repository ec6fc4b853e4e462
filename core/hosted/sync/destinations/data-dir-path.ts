import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DestinationConfigError } from './config-fields.ts';

/** Plugboard's own files at the top of its data directory (its databases and data keys), never a destination. */
const PLUGBOARD_FILE = /^(plugboard\.db|cloud-api\.db|data-keys\.json|instance-)/i;

/**
 * A destination file's place: `destination_path` read under the data directory as Airbyte reads it
 * under its local mount (`/local/sync.sqlite` → `<dataDir>/local/sync.sqlite`). A path leaving the
 * directory, by `..` or through a symbolic link, or naming Plugboard's own files there, is refused.
 */
export function fileUnderDataDir(dataDir: string, destinationPath: string, type: string, rootName = 'the data directory'): string {
  const root = resolve(dataDir);
  const file = resolve(root, destinationPath.replace(/^[/\\]+/, ''));
  const inside = relative(root, file);
  if (inside === '' || inside.split(sep)[0] === '..' || isAbsolute(inside)) {
    throw new DestinationConfigError(
      `${type} destination: destination_path ${JSON.stringify(destinationPath)} must name a file inside ${rootName}`,
      'destination_path',
    );
  }
  if (dirname(file) === root && PLUGBOARD_FILE.test(basename(file))) {
    throw new DestinationConfigError(
      `${type} destination: destination_path ${JSON.stringify(destinationPath)} names one of Plugboard's own files`,
      'destination_path',
    );
  }
  const link = symlinkLeaving(root, file);
  if (link !== undefined) {
    throw new DestinationConfigError(
      `${type} destination: destination_path ${JSON.stringify(destinationPath)} goes through a symbolic link that leads out of ${rootName}`,
      'destination_path',
    );
  }
  return file;
}

/** The first symbolic link on the way from `root` to `file` that leads outside `root` (a dangling one counts), if any. */
function symlinkLeaving(root: string, file: string): string | undefined {
  const realRoot = realPath(root) ?? root;
  let current = root;
  for (const part of relative(root, file).split(sep)) {
    current = join(current, part);
    const stats = lstatSync(current, { throwIfNoEntry: false });
    // Nothing there yet: the rest of the path is created inside what came before.
    if (!stats) return undefined;
    if (!stats.isSymbolicLink()) continue;
    const target = realPath(current);
    if (target === undefined) return current;
    const inside = relative(realRoot, target);
    if (inside.split(sep)[0] === '..' || isAbsolute(inside)) return current;
  }
  return undefined;
}

/** Where a path really leads, or undefined when it leads nowhere (a dangling link). */
function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
