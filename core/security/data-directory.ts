import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { ConfigurationError } from '../configuration-error.ts';

/**
 * The data directory holds the SQLite database and the generated data keys, so only the user running
 * Plugboard may read it: the directory is 0700 and its files 0600, made so on creation and narrowed at
 * every start (installs before this left them 0755 and 0644). An existing directory is narrowed only
 * when all it holds is Plugboard's (OWN_FILE): one shared with anything else (PLUGBOARD_DATA_DIR=., a
 * home directory) keeps its mode, and only our files in it are narrowed. What the process cannot do
 * there refuses the start (ConfigurationError) naming the path.
 */
export function preparePrivateDirectory(dir: string): void {
  asConfigurationError(dir, () => {
    const created = mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
    if (created || readdirSync(dir).every((name) => OWN_FILE.test(name))) chmodSync(dir, 0o700);
  });
}

/**
 * What Plugboard keeps in its data directory: the SQLite databases (the store's, the cloud API's) and
 * their -wal and -shm, the data keys and their drafts (data-keyring.ts), the instance's id and its
 * lock files (instance-identity.ts, instance-claim.ts), and `workspaces/`, where each workspace's file destinations of syncs land.
 */
const OWN_FILE = /^((plugboard|cloud-api)\.db(-wal|-shm)?|data-keys\.json(\.\d+\.[0-9a-f]{8})?|instance-id|instance-[A-Za-z0-9._-]{1,64}\.lock|workspaces)$/;

/** A file of the data directory: created empty and 0600 when absent (an existing one is left as is but narrowed to 0600). */
export function preparePrivateFile(path: string): void {
  asConfigurationError(path, () => {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  });
}

/** Narrows a file that may or may not be there (SQLite's -wal and -shm come and go) to 0600. */
export function narrowPrivateFile(path: string): void {
  asConfigurationError(path, () => {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  });
}

const FILE_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (is it owned by another user?)',
  EROFS: 'read-only file system',
  ENOTDIR: 'part of the path is a file, not a directory',
  EEXIST: 'a file, not a directory, is in the way',
  EISDIR: 'a directory is in the way',
  ENOSPC: 'no space left on the device',
};

function asConfigurationError(path: string, prepare: () => void): void {
  try {
    prepare();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new ConfigurationError(`the data directory (PLUGBOARD_DATA_DIR) cannot be used: ${path}: ${FILE_PROBLEMS[code] ?? code}`);
  }
}
