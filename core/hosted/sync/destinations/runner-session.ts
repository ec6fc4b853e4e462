import type { SqlValue } from './row-encoding.ts';
import type { SqlSession } from './sql-session.ts';
import { quoteIdentifier, type SqlColumn, type SqlDialect } from './table-columns.ts';
import { swapSql } from './table-sql.ts';

/** A connection of PostgreSQL or DuckDB, reduced to what a RunnerSession needs of it; each backend adds its bulk load. */
export interface QueryRunner {
  /** Answers the rows of one statement, its parameters text. */
  query(sql: string, params?: string[]): Promise<Record<string, unknown>[]>;
  /** True once the connection is lost: the next operation connects again. */
  isBroken(): boolean;
  close(): Promise<void>;
}

export interface RunnerSessionOptions<Runner extends QueryRunner> {
  dialect: SqlDialect;
  schema: string;
  dropCascade: boolean;
  connect(): Promise<Runner>;
}

/**
 * What PostgreSQL's and DuckDB's sessions share: a connection made on first use (and again once
 * lost), the schema created when missing, columns read from information_schema, transactions run
 * statement by statement. How rows go in is each backend's (its insert).
 */
export abstract class RunnerSession<Runner extends QueryRunner> implements SqlSession {
  readonly dialect: SqlDialect;
  readonly dropCascade: boolean;
  private runner: Promise<Runner> | undefined;

  constructor(protected readonly options: RunnerSessionOptions<Runner>) {
    this.dialect = options.dialect;
    this.dropCascade = options.dropCascade;
  }

  abstract insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string): Promise<void>;

  qualified(table: string): string {
    return `${quoteIdentifier(this.options.schema)}.${quoteIdentifier(table)}`;
  }

  async columnsOf(table: string): Promise<string[] | null> {
    const runner = await this.connected();
    const sameName = this.dialect.foldsIdentifierCase ? 'lower(table_name) = lower($2)' : 'table_name = $2';
    const rows = await runner.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND ${sameName} ORDER BY ordinal_position`, [
      this.options.schema,
      table,
    ]);
    return rows.length === 0 ? null : rows.map((row) => String(row.column_name));
  }

  async transaction(statements: string[]): Promise<void> {
    await this.inTransaction(async (runner) => {
      for (const statement of statements) await runner.query(statement);
    });
  }

  async swap(staging: string, table: string): Promise<void> {
    await this.inTransaction(async (runner) => {
      for (const statement of swapSql(this.qualified(table), this.qualified(staging), table, this.dropCascade)) await runner.query(statement);
      await this.afterSwap(runner, table);
    });
  }

  async close(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner) await (await runner.catch(() => undefined))?.close();
  }

  /** What a swap's transaction does once the staging table has the table's name: nothing, unless the backend has names to tidy. */
  protected async afterSwap(_runner: Runner, _table: string): Promise<void> {}

  protected async inTransaction(work: (runner: Runner) => Promise<void>): Promise<void> {
    const runner = await this.connected();
    await runner.query('BEGIN');
    try {
      await work(runner);
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Connects on first use, and again after a failed attempt or a lost connection. */
  protected async connected(): Promise<Runner> {
    const current = this.runner ? await this.runner.catch(() => undefined) : undefined;
    if (current && !current.isBroken()) return current;
    await current?.close().catch(() => undefined);
    this.runner = this.connectWithSchema();
    return this.runner;
  }

  /** Creates the schema only when missing: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even then. */
  private async connectWithSchema(): Promise<Runner> {
    const runner = await this.options.connect();
    try {
      const schema = this.options.schema;
      const found = await runner.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      if (found.length === 0) await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
      return runner;
    } catch (error) {
      await runner.close().catch(() => undefined);
      throw error;
    }
  }
}
