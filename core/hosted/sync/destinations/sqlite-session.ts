import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlValue } from './row-encoding.ts';
import type { SqlSession } from './sql-session.ts';
import { SQLITE_DIALECT } from './sqlite-dialect.ts';
import { quoteIdentifier, type SqlColumn } from './table-columns.ts';
import { insertIntoSql, swapSql } from './table-sql.ts';

/** Rows bound by one INSERT, within SQLite's limit of bound values per statement (32,766 since 3.32). */
const ROWS_PER_INSERT = 50;
const SQLITE_MAX_VARIABLES = 32_766;

/**
 * A destination SQLite file, opened on first use (its directory made). Synchronous underneath, so it
 * runs on the destination's own thread (sqlite-worker.ts), never on the event loop's.
 */
export class SqliteSession implements SqlSession {
  readonly dialect = SQLITE_DIALECT;
  readonly dropCascade = false;
  private db: Database.Database | undefined;
  /** Bound with one array of values (better-sqlite3 spreads it), which spares spreading a statement's hundreds of arguments. */
  private readonly statements = new Map<string, Database.Statement<[SqlValue[]]>>();

  /** `label` names the file in errors as its configuration does. */
  constructor(
    private readonly file: string,
    private readonly label: string,
  ) {}

  qualified(table: string): string {
    return quoteIdentifier(table);
  }

  async columnsOf(table: string): Promise<string[] | null> {
    const rows = this.statement('SELECT name FROM pragma_table_info(?)').all([table]) as { name: string }[];
    return rows.length === 0 ? null : rows.map((row) => row.name);
  }

  async transaction(statements: string[]): Promise<void> {
    const db = this.opened();
    db.transaction(() => {
      for (const statement of statements) db.exec(statement);
    })();
  }

  swap(staging: string, table: string): Promise<void> {
    return this.transaction(swapSql(this.qualified(table), this.qualified(staging), table, false));
  }

  async insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string): Promise<void> {
    // Many rows per statement: each run() crosses into the driver and binds once (measured ~1.4x the rows/s of one per statement).
    const perStatement = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(SQLITE_MAX_VARIABLES / columns.length)));
    const placeholders = `(${columns.map(() => '?').join(', ')})`;
    const many = this.statement(`${insertIntoSql(qualified, columns)} VALUES ${Array(perStatement).fill(placeholders).join(', ')}${conflict}`);
    const one = this.statement(`${insertIntoSql(qualified, columns)} VALUES ${placeholders}${conflict}`);
    // One array of values reused for every statement: slicing and flattening rows made garbage per statement.
    const values: SqlValue[] = new Array(perStatement * columns.length);
    this.opened().transaction(() => {
      let next = 0;
      for (; next + perStatement <= rows.length; next += perStatement) {
        let at = 0;
        for (let i = next; i < next + perStatement; i++) for (const value of rows[i]!) values[at++] = value;
        many.run(values);
      }
      for (; next < rows.length; next++) one.run(rows[next]!);
    })();
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db?.close();
    this.db = undefined;
  }

  private statement(sql: string): Database.Statement<[SqlValue[]]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.opened().prepare<[SqlValue[]]>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private opened(): Database.Database {
    if (this.db) return this.db;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const db = new Database(this.file);
      db.pragma('busy_timeout = 5000');
      // 16 KiB pages for a new file (an existing one keeps its own): rows of tens of fields insert about a fifth cheaper than in 4 KiB ones.
      db.pragma('page_size = 16384');
      // WAL: readers keep seeing the last committed table while a batch or a swap is written; NORMAL: a commit needs no fsync in WAL.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      this.db = db;
      return db;
    } catch (error) {
      throw new Error(`cannot open sqlite file ${JSON.stringify(this.label)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
