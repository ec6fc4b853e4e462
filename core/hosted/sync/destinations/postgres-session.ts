import { createHash } from 'node:crypto';
import { CopyTextWriter } from './copy-text.ts';
import { renameDerivedConstraints } from './postgres-constraint-names.ts';
import type { SqlValue } from './row-encoding.ts';
import { type QueryRunner, RunnerSession } from './runner-session.ts';
import { quoteIdentifier, type SqlColumn } from './table-columns.ts';
import { insertIntoSql } from './table-sql.ts';

/** A PostgreSQL connection: a RunnerSession's, and COPY FROM STDIN. */
export interface CopyRunner extends QueryRunner {
  /** Runs `COPY ... FROM STDIN` with `data` as its data; resolves once the server has taken it all. */
  copyFrom(sql: string, data: Buffer): Promise<void>;
}

const UNIQUE_VIOLATION = '23505';

/**
 * PostgreSQL's session: rows go in by COPY, the server's fastest way in (measured on bench:sync,
 * against one INSERT of a text array per column: the client builds one text instead of arrays the
 * driver escapes value by value, and the server parses it without unnesting and casting).
 *
 * COPY cannot upsert. A batch is COPYed straight into its table, one atomic statement, until a COPY
 * finds a key already there (a source that paged a record twice, an incremental sync reading a record
 * again): from then on that table's batches are COPYed into a temporary table and upserted from it by
 * primary key, in one transaction. Either way the row written last wins, as the upsert it stands for.
 */
export class PostgresSession extends RunnerSession<CopyRunner> {
  /** Tables a COPY found a key already in. */
  private readonly upserting = new Set<string>();
  /** Inserts run one at a time (SessionDestination's queue), so one buffer serves them all. */
  private readonly copyText = new CopyTextWriter();

  insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string): Promise<void> {
    return this.insertCopyText(qualified, columns, this.copyText.write(rows), conflict);
  }

  /** Rows already in COPY's text format (copy-text.ts): the loader thread encodes a batch while the one before is sent. */
  async insertCopyText(qualified: string, columns: SqlColumn[], data: Buffer, conflict: string): Promise<void> {
    const names = columns.map((column) => quoteIdentifier(column.name)).join(', ');
    if (conflict === '' || !this.upserting.has(qualified)) {
      try {
        await (await this.connected()).copyFrom(`COPY ${qualified} (${names}) FROM STDIN`, data);
        return;
      } catch (error) {
        if (conflict === '' || (error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        this.upserting.add(qualified);
      }
    }
    const loading = loadingTable(qualified, columns);
    const definitions = columns.map((column) => `${quoteIdentifier(column.name)} ${column.sqlType}`).join(', ');
    await this.inTransaction(async (runner) => {
      // Kept for the session, emptied at each commit; made again after a rollback undid its making, or on a new connection.
      await runner.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${loading} (${definitions}) ON COMMIT DELETE ROWS`);
      await runner.copyFrom(`COPY ${loading} (${names}) FROM STDIN`, data);
      await runner.query(`${insertIntoSql(qualified, columns)} SELECT ${names} FROM ${loading}${conflict}`);
    });
  }

  protected override afterSwap(runner: CopyRunner, table: string): Promise<void> {
    return renameDerivedConstraints(runner, this.qualified(table), table);
  }
}

/** The temporary table a table's upserts load through: one per table and set of columns (a table may gain columns). */
function loadingTable(qualified: string, columns: SqlColumn[]): string {
  const shape = [qualified, ...columns.map((column) => `${column.name} ${column.sqlType}`)].join('\0');
  return `pg_temp.${quoteIdentifier(`_plugboard_load_${createHash('sha256').update(shape).digest('hex').slice(0, 16)}`)}`;
}
