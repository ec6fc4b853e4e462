import type { SqlDriver } from '../../stores/sql-driver.ts';
import { placeholders } from './sql-columns.ts';

/**
 * The jobs asked for as `clear`: the sync engine runs them as resets (its jobs know no other name),
 * and answers give each job the name it was asked for, as Airbyte's do.
 */
export class ClearJobs {
  constructor(private readonly driver: SqlDriver) {}

  async mark(jobId: number): Promise<void> {
    await this.driver.run('INSERT INTO cloud_clear_jobs (job_id) VALUES (?)', [jobId]);
  }

  /** Those of the jobs that were asked for as `clear`. */
  async among(jobIds: readonly number[]): Promise<Set<number>> {
    if (jobIds.length === 0) return new Set();
    const rows = await this.driver.all<{ job_id: number | string }>(`SELECT job_id FROM cloud_clear_jobs WHERE job_id IN (${placeholders(jobIds)})`, [
      ...jobIds,
    ]);
    return new Set(rows.map((row) => Number(row.job_id)));
  }
}
