/**
 * The little a store needs from a SQL database. SQL is written once, with `?` placeholders, in the
 * subset SQLite and PostgreSQL share; each driver adapts it.
 */
export type SqlValue = string | number | null;

export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<{ changes: number }>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction on one connection; `lockKey` serialises it across processes where the database can (PostgreSQL advisory lock). */
  transaction<T>(work: (tx: SqlDriver) => Promise<T>, lockKey?: number): Promise<T>;
  close(): Promise<void>;
}
