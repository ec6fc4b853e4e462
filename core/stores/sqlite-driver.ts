import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDriver, SqlValue } from './sql-driver.ts';

/** The embedded default: one SQLite file under the data directory, in WAL mode. */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  /** Prepared once per SQL text: the store's queries are a fixed set, and preparing costs more than running. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, 'plugboard.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return this.statement(sql).all(...params) as T[];
  }

  async get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return this.statement(sql).get(...params) as T | undefined;
  }

  async run(sql: string, params: SqlValue[] = []): Promise<{ changes: number }> {
    return { changes: this.statement(sql).run(...params).changes };
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  /** better-sqlite3 is synchronous, so nothing else runs between BEGIN and COMMIT unless `work` awaits real I/O; IMMEDIATE takes the write lock up front against other processes. */
  async transaction<T>(work: (tx: SqlDriver) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
