import { ConflictError } from '../../errors.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { type ConnectionSchedule, nextRunAt } from '../cloud-api/connection-schedule.ts';
import type { SyncJobs } from './sync-jobs.ts';

interface DueConnection {
  id: string;
  workspace_id: string;
  schedule: string;
  status: 'active' | 'inactive';
  next_run_at: number;
}

/**
 * Fires the cron schedules of active connections: each due one gets a sync job, and its next fire
 * time moves on with one conditional UPDATE, so among instances sharing a database a tick fires once.
 * A connection whose last job still runs skips the tick, as Airbyte does.
 */
export class ScheduledSyncs {
  constructor(
    private readonly db: SqlDriver,
    private readonly jobs: SyncJobs,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Creates the due connections' jobs; answers how many were created. */
  async fireDue(): Promise<number> {
    const now = this.clock();
    const due = await this.db.all<DueConnection>(
      'SELECT id, workspace_id, schedule, status, next_run_at FROM cloud_connections WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at LIMIT 100',
      [now],
    );
    let created = 0;
    for (const connection of due) {
      const next = nextFire(connection, now);
      const { changes } = await this.db.run('UPDATE cloud_connections SET next_run_at = ? WHERE id = ? AND next_run_at = ?', [
        next,
        connection.id,
        Number(connection.next_run_at),
      ]);
      if (changes !== 1) continue; // another instance fired this tick
      try {
        await this.jobs.create(connection.id, connection.workspace_id, 'sync');
        created++;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    return created;
  }
}

/** The connection's next fire time; none (its schedule stops) when its stored schedule no longer parses, so one bad row never blocks the others. */
function nextFire(connection: DueConnection, now: number): number | null {
  try {
    return nextRunAt(JSON.parse(connection.schedule) as ConnectionSchedule, connection.status, now);
  } catch {
    return null;
  }
}
