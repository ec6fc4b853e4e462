import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The little a store needs from a SQL database. SQL is written once, with `?` placeholders, in the
 * subset SQLite and PostgreSQL share; each driver adapts it.
 */
export type SqlValue = string | number | null;

/** A counter of events per key over a window, kept in a table of the database (rate-limiter-flexible's layout). */
export interface SharedLimiterOptions {
  table: string;
  /** Keeps several limiters' keys apart in one table. */
  keyPrefix: string;
  /** Events allowed per window. */
  points: number;
  windowSeconds: number;
  /** How long a key that went over stays refused. */
  blockSeconds: number;
}

/** rate-limiter-flexible's options for a SharedLimiterOptions, whatever the store. */
export function storeLimiterOptions(options: SharedLimiterOptions) {
  return {
    tableName: options.table,
    tableCreated: true, // by the migrations
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.windowSeconds,
    blockDuration: options.blockSeconds,
    // The library's own timer has no error handling (a failed prune would crash the process) and is
    // never cleared: expired rows are pruned by the store's owner instead.
    clearExpiredByTimeout: false,
  };
}

export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<{ changes: number }>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction on one connection; `lockKey` serialises it across processes where the database can (PostgreSQL advisory lock). */
  transaction<T>(work: (tx: SqlDriver) => Promise<T>, lockKey?: number): Promise<T>;
  /** A rate limiter whose counts live in this database, so every process sharing it counts together. */
  rateLimiter(options: SharedLimiterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

/** Whether a statement failed for repeating a unique key (SQLite's and PostgreSQL's codes for it). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
