import { availableParallelism } from 'node:os';
import { BusyError } from '../../errors.ts';
import type { SqlValue } from '../../stores/sql-driver.ts';
import { WorkerCalls } from '../worker-calls.ts';
import type { SearchBudget, SearchReader } from './search-budget.ts';
import type { ReadCall } from './sqlite-read-worker.ts';

type ReaderThread = WorkerCalls<ReadCall, unknown[]>;

/** A thread per core but one (at most 4): the event loop keeps a core to itself, and searches beyond the pool wait their turn. */
export const DEFAULT_READER_THREADS = Math.min(4, Math.max(1, availableParallelism() - 1));

/** Searches waiting for a reader beyond these are answered 503 at once, or once they waited this long: never an unbounded queue. */
export const MAX_WAITING_SEARCHES = 64;
export const MAX_WAIT_MS = 10_000;

/**
 * A SQLite context store's searches, run on a small pool of reader threads (each with its own
 * read-only connection): a slow query never stalls the event loop, so it never delays other
 * requests. A thread runs one statement at a time; statements beyond the pool's size wait their turn.
 *
 * better-sqlite3 has no way to interrupt a statement: one past its search's budget is stopped by
 * abandoning its thread (terminated; a fresh one takes its place), and the search fails at once. The
 * slot is free again only once the old thread is gone, so runaway statements never outnumber the pool.
 */
export class SqliteReadPool implements SearchReader {
  private readonly threads: ReaderThread[];
  private readonly idle: ReaderThread[];
  private readonly waiting: ((thread: ReaderThread) => void)[] = [];

  constructor(
    file: string,
    size = DEFAULT_READER_THREADS,
    private readonly limits = { maxWaiting: MAX_WAITING_SEARCHES, maxWaitMs: MAX_WAIT_MS },
  ) {
    this.threads = Array.from(
      { length: size },
      (_, index) =>
        new WorkerCalls<ReadCall, unknown[]>(new URL('./sqlite-read-worker.ts', import.meta.url), { file }, `the context store's reader thread ${index + 1}`),
    );
    this.idle = [...this.threads];
  }

  async all<T>(sql: string, params: SqlValue[], budget: SearchBudget): Promise<T[]> {
    const thread = await this.take();
    let timer: NodeJS.Timeout | undefined;
    let abandoned: Promise<void> | undefined;
    try {
      // The budget counts the statement on its thread: not its wait for one, nor a new thread's start.
      if (!thread.running) await thread.call({ op: 'ready' });
      timer = setTimeout(() => (abandoned = thread.abandon(budget.exceeded())), budget.remainingMs());
      return (await budget.charged(() => thread.call({ op: 'all', sql, params }))) as T[];
    } finally {
      clearTimeout(timer);
      if (abandoned) void abandoned.then(() => this.give(thread));
      else this.give(thread);
    }
  }

  private take(): Promise<ReaderThread> {
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.waiting.length >= this.limits.maxWaiting) return Promise.reject(busy(`${this.waiting.length} searches are waiting already`));
    return new Promise((resolve, reject) => {
      const waiter = (given: ReaderThread) => {
        clearTimeout(timer);
        resolve(given);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(busy(`no reader was free within ${this.limits.maxWaitMs} ms`));
      }, this.limits.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  private give(thread: ReaderThread): void {
    const next = this.waiting.shift();
    if (next) next(thread);
    else this.idle.push(thread);
  }

  /** Closes every thread's connection, after the statement it is running, then the thread. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close({ op: 'close' })));
  }
}

function busy(why: string): BusyError {
  return new BusyError(`The context store is busy with other searches (${why}): try again shortly`, 'search_busy', 1);
}
