import { randomBytes } from 'node:crypto';
import type { InsertTarget } from './batch-loader.ts';
import type { TableSpec, WriteContext, WriteMode } from './destination.ts';
import type { JsonBatch } from './json-batch.ts';
import { rowsFromJson } from './json-rows.ts';
import { encodeRows, type SqlValue } from './row-encoding.ts';
import type { SqlSession } from './sql-session.ts';
import { checkTableSpec, missingColumns, type SqlColumn, sqlColumns, stagingTableName } from './table-columns.ts';
import { addColumnSql, createTableSql, dropTableSql, onConflictSql } from './table-sql.ts';

/**
 * One stream's rows going into one table, the same on every backend (the session speaks its SQL):
 * `overwrite` fills a staging table that `commit` swaps in, `append_dedup` upserts into the table.
 */
export class TableLoad {
  private state: 'open' | 'committed' | 'aborted' = 'open';
  /** Why a write failed: the table may lack that batch and others, so it is never swapped in. */
  private failed: unknown;

  private constructor(
    private readonly session: SqlSession,
    private readonly table: TableSpec,
    private readonly mode: WriteMode,
    private readonly context: WriteContext,
    /** The staging table (`overwrite`) or the table itself. */
    private readonly target: string,
    private readonly columns: SqlColumn[],
  ) {}

  /** Creates the staging table (dropping one a crashed attempt left), or the table or its missing columns. */
  static async open(session: SqlSession, table: TableSpec, mode: WriteMode, context: WriteContext): Promise<TableLoad> {
    checkTableSpec(table, session.dialect);
    const columns = sqlColumns(table, session.dialect);
    if (mode === 'overwrite') {
      const staging = stagingTableName(table.name, session.dialect);
      const qualified = session.qualified(staging);
      await session.transaction([dropTableSql(qualified, session.dropCascade), createTableSql(qualified, columns, table.primaryKey)]);
      return new TableLoad(session, table, mode, context, staging, columns);
    }
    const qualified = session.qualified(table.name);
    const existing = await session.columnsOf(table.name);
    const statements =
      existing === null
        ? [createTableSql(qualified, columns, table.primaryKey)]
        : missingColumns(columns, existing, session.dialect).map((column) => addColumnSql(qualified, column));
    if (statements.length > 0) await session.transaction(statements);
    return new TableLoad(session, table, mode, context, table.name, columns);
  }

  /** Writes the records in one transaction (their bytes are the caller's to count: record-bytes.ts); each is read once, in order. */
  async write(records: Iterable<Record<string, unknown>>): Promise<void> {
    await this.insert(encodeRows(this.table, records, this.context, this.session.dialect));
  }

  /** Writes a batch of records' JSON texts (a writer thread's: json-batch.ts) in one transaction. */
  writeJson(batch: JsonBatch): Promise<void> {
    return this.insert(rowsFromJson(this.table, batch, this.context, this.session.dialect));
  }

  private async insert(rows: SqlValue[][]): Promise<void> {
    const { qualified, columns, conflict } = this.insertTarget();
    if (rows.length === 0) return;
    try {
      await this.session.insert(qualified, columns, rows, conflict, this.mode === 'overwrite');
    } catch (error) {
      // A session may have undone earlier batches not committed yet with this one: the load cannot be committed.
      this.failed = error;
      throw error;
    }
  }

  /** Where a BatchLoader inserts this load's rows: the staging table (or the table), its columns, the end of each insert. */
  insertTarget(): InsertTarget {
    this.expectOpen('write');
    // Upserting in overwrite too: a source that pages the same record twice must not fail the key.
    return { qualified: this.session.qualified(this.target), columns: this.columns, conflict: onConflictSql(this.table, this.columns) };
  }

  async commit(): Promise<void> {
    this.expectOpen('commit');
    if (this.failed !== undefined)
      throw new Error(
        `cannot commit table ${JSON.stringify(this.table.name)}: a write failed (${this.failed instanceof Error ? this.failed.message : String(this.failed)})`,
      );
    if (this.mode === 'overwrite') {
      await this.session.swap(this.target, this.table.name);
    }
    // Only now: a failed swap leaves the staging table for abort() to drop.
    this.state = 'committed';
  }

  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    if (this.mode === 'overwrite') await this.session.transaction([dropTableSql(this.session.qualified(this.target), this.session.dropCascade)]);
  }

  private expectOpen(action: string): void {
    if (this.state !== 'open') throw new Error(`cannot ${action} table ${JSON.stringify(this.table.name)}: its write was already ${this.state}`);
  }
}

/** What check() proves: a table can be created, written and dropped. */
export async function probeSession(session: SqlSession): Promise<void> {
  const table: TableSpec = { name: `_airbyte_connection_test_${randomBytes(6).toString('hex')}`, columns: [{ name: 'probe', type: 'string' }], primaryKey: [] };
  const load = await TableLoad.open(session, table, 'append_dedup', { syncId: 0 });
  try {
    await load.write([{ probe: 'ok' }]);
  } finally {
    await dropTables(session, [table.name]);
  }
}

/** Drops the tables and any staging table an unfinished overwrite of theirs left. */
export async function dropTables(session: SqlSession, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const tables = names.flatMap((name) => [name, stagingTableName(name, session.dialect)]);
  await session.transaction(tables.map((name) => dropTableSql(session.qualified(name), session.dropCascade)));
}
