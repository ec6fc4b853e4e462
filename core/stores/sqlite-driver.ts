import { join } from 'node:path';
import Database from 'better-sqlite3';
import { RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ConfigurationError } from '../configuration-error.ts';
import { narrowPrivateFile, preparePrivateDirectory, preparePrivateFile } from '../security/data-directory.ts';
import { storeLimiterOptions, type SharedLimiterOptions, type SqlDriver, type SqlValue } from './sql-driver.ts';

const STATEMENT_CACHE_SIZE = 500;

/** The embedded default: one SQLite file under the data directory, in WAL mode. */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  /** Prepared once per SQL text: most queries are a fixed set, and preparing costs more than running. Searches are not, so the cache is bounded. */
  private readonly statements = new Map<string, Database.Statement>();
  /** The last transaction begun; the next one starts after it. */
  private transactions: Promise<unknown> = Promise.resolve();

  /**
   * `file` defaults to plugboard.db in the data directory; a local context store names its own.
   * `bulk`: for a large store of data that can be read again (the context store): commits are not
   * flushed to disk one by one (WAL's synchronous=NORMAL: a crash of the machine may lose the last
   * ones, never corrupt the file), a 256 MB page cache, the file memory-mapped (up to 2 GB), and WAL checkpoints every 64 MB, not 4 MB.
   */
  constructor(
    dataDir: string,
    readonly file = join(dataDir, 'plugboard.db'),
    options: { bulk?: boolean } = {},
  ) {
    this.db = openDatabase(dataDir, file);
    if (options.bulk) {
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('cache_size = -262144');
      this.db.pragma('wal_autocheckpoint = 16384');
      // Reads straight from the OS page cache: a search touching pages not in SQLite's own cache stays fast.
      this.db.pragma('mmap_size = 2147418112');
    }
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
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  /**
   * One connection holds one transaction at a time: transactions of this process wait their turn (a
   * second BEGIN would fail). IMMEDIATE takes the write lock up front against other processes.
   */
  transaction<T>(work: (tx: SqlDriver) => Promise<T>): Promise<T> {
    const run = this.transactions.then(() => this.runTransaction(work));
    this.transactions = run.catch(() => undefined);
    return run;
  }

  private async runTransaction<T>(work: (tx: SqlDriver) => Promise<T>): Promise<T> {
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

  rateLimiter(options: SharedLimiterOptions): RateLimiterAbstract {
    return new RateLimiterSQLite({
      storeClient: this.db,
      storeType: 'better-sqlite3',
      ...storeLimiterOptions(options),
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/**
 * plugboard.db in the private data directory (see data-directory.ts), made 0600 before SQLite opens it,
 * since SQLite gives its -wal and -shm files the database file's mode. A file SQLite cannot use (not a
 * database, read-only, locked) refuses the start.
 */
function openDatabase(dataDir: string, file: string): Database.Database {
  preparePrivateDirectory(dataDir);
  preparePrivateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`]) narrowPrivateFile(companion);
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    // First: switching a new file to WAL takes a lock that another instance starting at once may hold.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db?.close();
    if (!(error instanceof Database.SqliteError)) throw error;
    throw new ConfigurationError(`cannot use the SQLite database ${file}: ${error.message}`);
  }
}
