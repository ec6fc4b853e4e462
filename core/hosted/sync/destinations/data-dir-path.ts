import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { DestinationConfigError } from './config-fields.ts';

/** Plugboard's own files at the top of its data directory (its databases and data keys), never a destination. */
const PLUGBOARD_FILE = /^(plugboard\.db|cloud-api\.db|data-keys\.json)/i;

/**
 * A destination file's place: `destination_path` read under the data directory as Airbyte reads it
 * under its local mount (`/local/sync.sqlite` → `<dataDir>/local/sync.sqlite`). A path leaving the
 * directory, or naming Plugboard's own files there, is refused.
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
  return file;
}
