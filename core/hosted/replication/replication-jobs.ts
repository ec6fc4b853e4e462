import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { ReplicationStatus } from '../context-store/context-store.ts';

/** A connector's replication job as stored: its last run and when it runs next. */
export interface ReplicationJob {
  connector_id: string;
  status: ReplicationStatus;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  next_run_at: string;
  failures: number;
  lease_owner: string | null;
  lease_until: string | null;
  /** 1 when a rerun was asked for while a run held the job. */
  rerun_requested: number;
}

/**
 * Durable replication jobs, one row per connector, in the context store's database. A run is taken
 * by a lease (owner and expiry) set with one conditional UPDATE, so among instances sharing a
 * PostgreSQL database exactly one runs a connector at a time; a crashed instance's lease expires and
 * another (or the same, restarted) takes the job over.
 */
export class ReplicationJobs {
  constructor(
    private readonly db: SqlDriver,
    private readonly clock: () => number = Date.now,
  ) {}

  private now(offsetMs = 0): string {
    return new Date(this.clock() + offsetMs).toISOString();
  }

  /** Adds a connector's job, due now (the first replication starts at once). */
  async add(connectorId: string): Promise<void> {
    await this.db.run('INSERT INTO replication_jobs (connector_id, status, next_run_at) VALUES (?, ?, ?) ON CONFLICT (connector_id) DO NOTHING', [
      connectorId,
      'pending',
      this.now(),
    ]);
  }

  async get(connectorId: string): Promise<ReplicationJob | undefined> {
    const job = await this.db.get<ReplicationJob>('SELECT * FROM replication_jobs WHERE connector_id = ?', [connectorId]);
    return job && { ...job, failures: Number(job.failures) };
  }

  /** Makes the job due now; false when a run holds it (that run is the refresh asked for). */
  async requestNow(connectorId: string): Promise<boolean> {
    const now = this.now();
    const { changes } = await this.db.run('UPDATE replication_jobs SET next_run_at = ? WHERE connector_id = ? AND (lease_until IS NULL OR lease_until < ?)', [
      now,
      connectorId,
      now,
    ]);
    return changes === 1;
  }

  /**
   * Runs the job again as soon as possible with what the connector has now: due at once, or, while a
   * run holds it, once that run finishes (the run in progress started with the old settings).
   */
  async requestRerun(connectorId: string): Promise<void> {
    await this.add(connectorId);
    if (!(await this.requestNow(connectorId))) await this.db.run('UPDATE replication_jobs SET rerun_requested = 1 WHERE connector_id = ?', [connectorId]);
  }

  /**
   * Starts the job over: a run in progress loses its lease (its next renewal fails, so it stops) and
   * the job is due at once, as if new. For a connector whose stored records were just cleared.
   */
  async restart(connectorId: string): Promise<void> {
    await this.add(connectorId);
    await this.db.run(
      `UPDATE replication_jobs SET status = 'pending', next_run_at = ?, lease_owner = NULL, lease_until = NULL, rerun_requested = 0, failures = 0, error = NULL
       WHERE connector_id = ?`,
      [this.now(), connectorId],
    );
  }

  /** Connectors whose job is due and not held by a live lease, oldest due first. */
  async due(limit: number): Promise<string[]> {
    const now = this.now();
    const rows = await this.db.all<{ connector_id: string }>(
      'SELECT connector_id FROM replication_jobs WHERE next_run_at <= ? AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_run_at LIMIT ?',
      [now, now, limit],
    );
    return rows.map((row) => row.connector_id);
  }

  /** Takes the job for `owner` if it is still due and free; true when this caller won it. */
  async claim(connectorId: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const { changes } = await this.db.run(
      `UPDATE replication_jobs SET lease_owner = ?, lease_until = ?, status = 'loading', started_at = ?, error = NULL
       WHERE connector_id = ? AND next_run_at <= ? AND (lease_until IS NULL OR lease_until < ?)`,
      [owner, this.now(leaseMs), now, connectorId, now, now],
    );
    return changes === 1;
  }

  /** Extends the lease; false when `owner` lost it (it expired and another instance took the job). */
  async renew(connectorId: string, owner: string, leaseMs: number): Promise<boolean> {
    const { changes } = await this.db.run('UPDATE replication_jobs SET lease_until = ? WHERE connector_id = ? AND lease_owner = ?', [
      this.now(leaseMs),
      connectorId,
      owner,
    ]);
    return changes === 1;
  }

  /** Lets the job go at once (this instance is stopping): due as it was, taken by the next poll of any instance. */
  async release(connectorId: string, owner: string): Promise<void> {
    await this.db.run('UPDATE replication_jobs SET lease_until = ? WHERE connector_id = ? AND lease_owner = ?', [this.now(-1), connectorId, owner]);
  }

  /** Lets go at once the jobs an earlier run of this instance held when it died (see SyncJobs.releaseEarlierRuns). */
  async releaseEarlierRuns(prefix: string): Promise<void> {
    await this.db.run('UPDATE replication_jobs SET lease_until = ? WHERE substr(lease_owner, 1, ?) = ?', [this.now(-1), prefix.length, prefix]);
  }

  /**
   * Ends the run: `ready`, or `failed` with the error and a retry after a backoff; the lease is
   * released. A rerun asked for meanwhile makes the job due at once. False when this run no longer
   * held the job (another instance took it over, or the connector was deleted with it).
   */
  async finish(connectorId: string, owner: string, outcome: { error?: string; nextRunInMs: number }): Promise<boolean> {
    const failed = outcome.error !== undefined;
    const { changes } = await this.db.run(
      `UPDATE replication_jobs SET status = ?, finished_at = ?, error = ?, next_run_at = CASE WHEN rerun_requested = 1 THEN ? ELSE ? END,
       rerun_requested = 0, failures = ${failed ? 'failures + 1' : '0'}, lease_owner = NULL, lease_until = NULL WHERE connector_id = ? AND lease_owner = ?`,
      [failed ? 'failed' : 'ready', this.now(), outcome.error ?? null, this.now(), this.now(outcome.nextRunInMs), connectorId, owner],
    );
    return changes === 1;
  }
}
