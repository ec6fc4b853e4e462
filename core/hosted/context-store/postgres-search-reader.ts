import type { SqlDriver, SqlValue } from '../../stores/sql-driver.ts';
import type { PlannerSettings } from './postgres-plan-settings.ts';
import type { SearchBudget, SearchReader } from './search-budget.ts';

/** PostgreSQL's query_canceled: here, the statement_timeout of the search's transaction. */
const QUERY_CANCELED = '57014';

/** A search's statements on PostgreSQL, each in a transaction whose statement_timeout is what is left of the budget. */
export class PostgresSearchReader implements SearchReader {
  constructor(private readonly driver: SqlDriver) {}

  async all<T>(sql: string, params: SqlValue[], budget: SearchBudget, settings: PlannerSettings = {}): Promise<T[]> {
    try {
      return await this.driver.transaction(async (tx) => {
        // SET takes no parameters; the values are ours (an integer, the planner settings' constants). LOCAL: they end with the
        // transaction, never leak into the pool. One round trip for all of them.
        const local = { statement_timeout: String(budget.remainingMs()), ...settings };
        await tx.exec(
          Object.entries(local)
            .map(([name, value]) => `SET LOCAL ${name} = ${value}`)
            .join('; '),
        );
        return budget.charged(() => tx.all<T>(sql, params));
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === QUERY_CANCELED) throw budget.exceeded();
      throw error;
    }
  }

  /** The driver is the store's: it closes it. */
  async close(): Promise<void> {}
}
