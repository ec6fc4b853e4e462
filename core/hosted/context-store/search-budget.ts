import { PlugboardError } from '../../errors.ts';
import type { SqlValue } from '../../stores/sql-driver.ts';
import type { PlannerSettings } from './postgres-plan-settings.ts';
import { describeCost, type SearchCost } from './search-cost.ts';

/** How long a search may run when its store is given no budget (PLUGBOARD_SEARCH_BUDGET_MS on the server). */
export const DEFAULT_SEARCH_BUDGET_MS = 2000;

/** 422 `query_too_expensive`: the search ran past its time budget; the detail names what made it costly. */
export class QueryTooExpensiveError extends PlugboardError {
  constructor(budgetMs: number, cost: SearchCost) {
    super(
      422,
      [
        {
          loc: ['body', 'params', 'query'],
          msg: `the search ran past its time budget of ${budgetMs} ms; what makes it costly: ${describeCost(cost)}. Narrow the filter with a condition few records meet, or sort by fewer keys`,
          type: 'value_error.query_too_expensive',
        },
      ],
      'query_too_expensive',
    );
  }
}

/**
 * One search's time budget: the time its statements run, summed (not their wait for a thread or a
 * connection, which is other searches' cost), and the error a statement still running past it fails with.
 */
export class SearchBudget {
  private spentMs = 0;

  constructor(
    private readonly budgetMs: number,
    private readonly cost: SearchCost,
  ) {}

  /** What is left, at least 1 ms: a statement always gets to start. */
  remainingMs(): number {
    return Math.max(1, Math.ceil(this.budgetMs - this.spentMs));
  }

  /**
   * Runs one statement, charging its time to the budget. One that ends past the budget fails as one
   * stopped there would: the timer that stops it runs on the event loop, which a busy process may
   * reach only after the answer.
   */
  async charged<T>(statement: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let answer: T;
    try {
      answer = await statement();
    } finally {
      this.spentMs += performance.now() - started;
    }
    if (this.spentMs > this.budgetMs) throw this.exceeded();
    return answer;
  }

  exceeded(): QueryTooExpensiveError {
    return new QueryTooExpensiveError(this.budgetMs, this.cost);
  }
}

/**
 * Where a search's statements run, each stopped when the search's budget is spent: SQLite's reader
 * threads (sqlite-read-pool.ts), PostgreSQL under a statement_timeout (postgres-search-reader.ts).
 */
export interface SearchReader {
  /** `settings`: PostgreSQL planner settings for this statement alone (see postgres-plan-settings.ts); SQLite has none. */
  all<T>(sql: string, params: SqlValue[], budget: SearchBudget, settings?: PlannerSettings): Promise<T[]>;
  close(): Promise<void>;
}
