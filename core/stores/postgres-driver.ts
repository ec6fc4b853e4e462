import pg from 'pg';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { storeLimiterOptions, type SharedLimiterOptions, type SqlDriver, type SqlValue } from './sql-driver.ts';

type Queryable = pg.Pool | pg.PoolClient;

/** `?` placeholders as PostgreSQL's `$1..$n` (the store's SQL has no `?` inside string literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** PostgreSQL through a pool; `schema` puts every connection on its own search_path (tests use one per run). */
export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;

  private constructor(
    private readonly db: Queryable,
    private readonly owner: pg.Pool | null,
  ) {}

  static connect(connectionString: string, schema?: string): PostgresDriver {
    if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    const pool = new pg.Pool({ connectionString, max: 10, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    return new PostgresDriver(pool, pool);
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return (await this.db.query(numbered(sql), params)).rows as T[];
  }

  async get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: SqlValue[] = []): Promise<{ changes: number }> {
    return { changes: (await this.db.query(numbered(sql), params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.db.query(sql);
  }

  async transaction<T>(work: (tx: SqlDriver) => Promise<T>, lockKey?: number): Promise<T> {
    if (!this.owner) return work(this);
    const client = await this.owner.connect();
    try {
      await client.query('BEGIN');
      if (lockKey !== undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
      const result = await work(new PostgresDriver(client, null));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  rateLimiter(options: SharedLimiterOptions): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.db,
      storeType: this.owner ? 'pool' : 'client',
      ...storeLimiterOptions(options),
      // consume() of a key over its limit is refused from memory until its block ends, without a query.
      inMemoryBlockOnConsumed: options.points + 1,
      inMemoryBlockDuration: options.blockSeconds,
    });
  }

  async close(): Promise<void> {
    await this.owner?.end();
  }
}
