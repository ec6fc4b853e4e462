import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A running process's hold on its instance id: while held, no other live process goes by that id. */
export interface InstanceClaim {
  /** False when another live process holds the id: this run must not take over that one's jobs. */
  held: boolean;
  release(): Promise<void>;
}

const NOT_HELD: InstanceClaim = { held: false, release: async () => undefined };

/**
 * Claims an instance id for this process, so a start takes over its earlier runs' jobs only when no
 * other live process goes by the same id (two instances sharing a data directory, or one
 * PLUGBOARD_INSTANCE_ID): on PostgreSQL a session advisory lock on a connection of its own (it ends
 * with the process, however it ends), on SQLite a lock file naming the host and process.
 */
export async function claimInstance(instanceId: string, options: { databaseUrl?: string; dataDir: string }): Promise<InstanceClaim> {
  // Whatever goes wrong, the run goes by an id of its own: its jobs then wait for their lease, as before.
  return (options.databaseUrl ? claimOnPostgres(instanceId, options.databaseUrl) : claimWithLockFile(instanceId, options.dataDir)).catch(() => NOT_HELD);
}

async function claimOnPostgres(instanceId: string, databaseUrl: string): Promise<InstanceClaim> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'plugboard-instance' });
  // A lost connection frees the lock: a later start may then take over, as after a crash.
  client.on('error', () => undefined);
  await client.connect();
  const { rows } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext('plugboard-instance:' || $1)) AS held", [instanceId]);
  if (!rows[0]!.held) {
    await client.end();
    return NOT_HELD;
  }
  return { held: true, release: () => client.end().catch(() => undefined) };
}

async function claimWithLockFile(instanceId: string, dataDir: string): Promise<InstanceClaim> {
  const file = join(dataDir, `instance-${instanceId}.lock`);
  const mine = `${hostname()} ${process.pid} ${instanceId}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      return { held: true, release: async () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return NOT_HELD;
      if (!holderIsGone(file)) return NOT_HELD;
      rmSync(file, { force: true });
    }
  }
  return NOT_HELD;
}

/** Whether the lock file's process is gone: on this host, no such process; another host's is taken as alive. */
function holderIsGone(file: string): boolean {
  const [host, pid] = readFileSync(file, 'utf8').trim().split(' ');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
