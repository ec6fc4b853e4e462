import type { SqlValue } from './row-encoding.ts';
import type { SqlSession } from './sql-session.ts';
import { quoteIdentifier, type SqlColumn, type SqlDialect } from './table-columns.ts';
import { insertIntoSql } from './table-sql.ts';

/** A connection of PostgreSQL or DuckDB, reduced to what TextListSession needs of it. */
export interface QueryRunner {
  /** Answers the rows of one statement, its parameters text. */
  query(sql: string, params?: string[]): Promise<Record<string, unknown>[]>;
  /** Runs one statement whose parameters are lists of text. */
  runWithTextLists(sql: string, lists: (string | null)[][]): Promise<void>;
  /** True once the connection is lost: the next operation connects again. */
  isBroken(): boolean;
  close(): Promise<void>;
}

export interface TextListSessionOptions {
  dialect: SqlDialect;
  schema: string;
  dropCascade: boolean;
  /** The SQL reading parameter `$<number>` as a list of text (an array in PostgreSQL, JSON text in DuckDB). */
  textListParam(number: number): string;
  connect(): Promise<QueryRunner>;
}

/** Rows per insert statement: bounds one statement's parameter text, whatever the batch. */
const ROWS_PER_STATEMENT = 10_000;

/**
 * PostgreSQL's and DuckDB's session: the schema created on first use, columns read from
 * information_schema, and rows inserted a column at a time: one list parameter per column, unnested
 * and cast to the column's type, so a statement has as many parameters as the table has columns.
 */
export class TextListSession implements SqlSession {
  readonly dialect: SqlDialect;
  readonly dropCascade: boolean;
  private runner: Promise<QueryRunner> | undefined;

  constructor(private readonly options: TextListSessionOptions) {
    this.dialect = options.dialect;
    this.dropCascade = options.dropCascade;
  }

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

  async insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string): Promise<void> {
    const unnested = columns.map((column, i) => `unnest(${this.options.textListParam(i + 1)})::${column.sqlType}`);
    const sql = `${insertIntoSql(qualified, columns)} SELECT ${unnested.join(', ')}${conflict}`;
    await this.inTransaction(async (runner) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        await runner.runWithTextLists(
          sql,
          columns.map((_, i) => chunk.map((row) => asText(row[i] ?? null))),
        );
      }
    });
  }

  async close(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner) await (await runner.catch(() => undefined))?.close();
  }

  private async inTransaction(work: (runner: QueryRunner) => Promise<void>): Promise<void> {
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
  private async connected(): Promise<QueryRunner> {
    const current = this.runner ? await this.runner.catch(() => undefined) : undefined;
    if (current && !current.isBroken()) return current;
    await current?.close().catch(() => undefined);
    this.runner = this.connectWithSchema();
    return this.runner;
  }

  /** Creates the schema only when missing: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even then. */
  private async connectWithSchema(): Promise<QueryRunner> {
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

/** Numbers and booleans as their SQL literal text (a JavaScript number's text reads back as the same number). */
function asText(value: SqlValue): string | null {
  return value === null || typeof value === 'string' ? value : String(value);
}
