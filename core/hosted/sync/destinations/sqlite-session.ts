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
 * A staging table's batches commit together, up to this many rows or this long after the first: each
 * commit writes the pages it touched to the WAL again (the key index's above all). Measured on Slack
 * messages: a commit per 8,000 rows inserts them with a fifth less CPU than one per 1,000.
 */
const STAGING_ROWS_PER_COMMIT = 8_000;
const STAGING_COMMIT_MS = 200;
/** Pages the WAL takes before it is copied into the file (SQLite's default is 1,000): fewer, larger checkpoints. */
const WAL_CHECKPOINT_PAGES = 4_000;

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
  /** The staging rows inserted and not committed yet, and the timer that commits them when no batch follows soon. */
  private held: { rows: number; timer: NodeJS.Timeout } | undefined;
  /** Why the timer could not commit held rows: the staging table lacks them, so its next insert or swap fails. */
  private heldLost: unknown;

  /** `label` names the file in errors as its configuration does. */
  constructor(
    private readonly file: string,
    private readonly label: string,
  ) {}

  qualified(table: string): string {
    return quoteIdentifier(table);
  }

  async columnsOf(table: string): Promise<string[] | null> {
    this.commitHeld();
    const rows = this.statement('SELECT name FROM pragma_table_info(?)').all([table]) as { name: string }[];
    return rows.length === 0 ? null : rows.map((row) => row.name);
  }

  async transaction(statements: string[]): Promise<void> {
    this.commitHeld();
    const db = this.opened();
    db.transaction(() => {
      for (const statement of statements) db.exec(statement);
    })();
  }

  async swap(staging: string, table: string): Promise<void> {
    this.throwIfHeldLost();
    await this.transaction(swapSql(this.qualified(table), this.qualified(staging), table, false));
  }

  async insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string, staging = false): Promise<void> {
    // Many rows per statement: each run() crosses into the driver and binds once (measured ~1.4x the rows/s of one per statement).
    const perStatement = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(SQLITE_MAX_VARIABLES / columns.length)));
    const placeholders = `(${columns.map(() => '?').join(', ')})`;
    const many = this.statement(`${insertIntoSql(qualified, columns)} VALUES ${Array(perStatement).fill(placeholders).join(', ')}${conflict}`);
    const one = this.statement(`${insertIntoSql(qualified, columns)} VALUES ${placeholders}${conflict}`);
    // One array of values reused for every statement: slicing and flattening rows made garbage per statement.
    const values: SqlValue[] = new Array(perStatement * columns.length);
    const db = this.opened();
    if (staging) {
      this.throwIfHeldLost();
      // Held rows stay in an open transaction; better-sqlite3 runs the batch's own as a savepoint inside it.
      if (!db.inTransaction) db.exec('BEGIN');
    } else this.commitHeld();
    const insertBatch = db.transaction(() => {
      let next = 0;
      for (; next + perStatement <= rows.length; next += perStatement) {
        let at = 0;
        for (let i = next; i < next + perStatement; i++) for (const value of rows[i]!) values[at++] = value;
        many.run(values);
      }
      for (; next < rows.length; next++) one.run(rows[next]!);
    });
    try {
      insertBatch();
    } catch (error) {
      // The load fails with this batch (TableLoad commits it no more): its earlier held rows go with it.
      this.rollbackHeld();
      throw error;
    }
    if (staging) this.hold(rows.length);
  }

  /** Counts rows held in the open transaction: committed once enough are, or once no batch came for a while. */
  private hold(rows: number): void {
    if (!this.held) {
      const timer = setTimeout(() => {
        try {
          this.commitHeld();
        } catch {
          // Kept in heldLost, for the load's next insert or swap to fail with.
        }
      }, STAGING_COMMIT_MS);
      // A commit due is no reason to keep the thread alive: close() commits what is held.
      timer.unref();
      this.held = { rows: 0, timer };
    }
    this.held.rows += rows;
    if (this.held.rows >= STAGING_ROWS_PER_COMMIT) this.commitHeld();
  }

  /** Commits the held rows; when that fails, the staging load they belong to fails too (heldLost). */
  private commitHeld(): void {
    if (!this.held) return;
    clearTimeout(this.held.timer);
    this.held = undefined;
    try {
      if (this.db?.inTransaction) this.db.exec('COMMIT');
    } catch (error) {
      this.heldLost = error;
      this.rollbackHeld();
      throw error;
    }
  }

  private throwIfHeldLost(): void {
    const lost = this.heldLost;
    this.heldLost = undefined;
    if (lost !== undefined) throw lost;
  }

  private rollbackHeld(): void {
    if (this.held) clearTimeout(this.held.timer);
    this.held = undefined;
    try {
      if (this.db?.inTransaction) this.db.exec('ROLLBACK');
    } catch {
      // Nothing held is kept either way; the error that led here is the one to report.
    }
  }

  async close(): Promise<void> {
    this.commitHeld();
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
      db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
      this.db = db;
      return db;
    } catch (error) {
      throw new Error(`cannot open sqlite file ${JSON.stringify(this.label)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
