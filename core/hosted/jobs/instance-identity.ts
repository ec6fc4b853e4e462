import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '../../configuration-error.ts';
import { narrowPrivateFile } from '../../security/data-directory.ts';

/** The file under the data directory that keeps an instance's id across restarts. */
export const INSTANCE_ID_FILE = 'instance-id';

const INSTANCE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Who "this instance" is across restarts, so that a restart takes back at once the jobs its crashed
 * run held: PLUGBOARD_INSTANCE_ID when set, else an id kept in the data directory (made on the first
 * start). A data directory it cannot write leaves a new id per run: such jobs wait for their lease.
 */
export function instanceIdOf(dataDir: string, env: NodeJS.ProcessEnv): string {
  const given = env.PLUGBOARD_INSTANCE_ID;
  if (given !== undefined && given !== '') {
    if (!INSTANCE_ID.test(given)) throw new ConfigurationError('PLUGBOARD_INSTANCE_ID must be 1-64 letters, digits, ".", "_" or "-"');
    return given;
  }
  const file = join(dataDir, INSTANCE_ID_FILE);
  try {
    // Private as the rest of the data directory (see preparePrivateDirectory).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // `wx`: of two processes starting on one directory, the second reads the first's id.
    writeFileSync(file, `${randomUUID()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return randomUUID();
  }
  try {
    // An install before this left it 0644: narrowed as the directory's other files are (preparePrivateFile).
    narrowPrivateFile(file);
    const stored = readFileSync(file, 'utf8').trim();
    return INSTANCE_ID.test(stored) ? stored : randomUUID();
  } catch {
    // Another user's file, a read-only mount: this run goes by an id of its own.
    return randomUUID();
  }
}

/**
 * The lease owner a job worker writes: the instance's id and one of this run, so a restart tells its
 * own earlier runs' leases (owners starting with `earlierRuns`) from other instances'.
 */
export function leaseOwnerFor(instanceId: string | undefined): { owner: string; earlierRuns?: string } {
  if (instanceId === undefined) return { owner: randomUUID() };
  return { owner: `${instanceId}/${randomUUID()}`, earlierRuns: `${instanceId}/` };
}
