import { basename } from 'node:path';
import { fileUnderDataDir } from '../../hosted/sync/destinations/data-dir-path.ts';
import { SECRET_MASK } from '../../hosted/cloud-api/configuration-secrets.ts';
import { InputError } from '../errors.ts';

/**
 * Reading a destination's configuration as the public API answers it (secrets masked), with the
 * readers the destinations use (config-fields.ts): each names the field it refuses and never quotes
 * a value that may be a secret.
 */
export type Configuration = Record<string, unknown>;
export { optionalString, requiredString } from '../../hosted/sync/destinations/config-fields.ts';

/**
 * A secret field's value: the caller's (options.secrets) when given, else the configuration's
 * unless the API masked it. A masked value with no replacement is refused, naming the field.
 */
export function secretField(config: Configuration, type: string, field: string, secrets: Record<string, string> | undefined): string | undefined {
  const supplied = secrets && Object.hasOwn(secrets, field) ? secrets[field] : undefined;
  if (supplied !== undefined) {
    if (typeof supplied !== 'string') throw new InputError(`${type} destination: "secrets.${field}" must be a string`, `secrets.${field}`);
    return supplied;
  }
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InputError(`${type} destination: "${field}" must be a string`, field);
  if (value === SECRET_MASK) {
    throw new InputError(
      `${type} destination: "${field}" is masked in the configuration the API answers; pass its value in options.secrets.${field} to read the destination`,
      field,
    );
  }
  return value;
}

/**
 * A file destination's `destination_path` on this machine: read under `localRoot` (the server's
 * workspace data directory, or a mount of it) as the server reads it under its own, so
 * `/local/sync.sqlite` is `<localRoot>/local/sync.sqlite`. A path leaving the root is refused.
 */
export function fileUnderLocalRoot(localRoot: string | undefined, destinationPath: string, type: string): string {
  if (localRoot === undefined || localRoot === '') {
    throw new InputError(
      `${type} destination: its file is read on this machine: pass options.localRoot, the server's workspace data directory (or a mount of it) that destination_path is read under`,
      'localRoot',
    );
  }
  return fileUnderDataDir(localRoot, destinationPath, type, 'the local root');
}

/** A file's database name as DuckDB names an attached file's catalog: its name up to the first dot (`sync.duckdb` → `sync`). */
export function fileDatabaseName(file: string): string {
  const name = basename(file);
  return name.split('.')[0] || name;
}
