import type { SqlValue } from './row-encoding.ts';
import { type QueryRunner, RunnerSession, type RunnerSessionOptions } from './runner-session.ts';
import type { SqlColumn } from './table-columns.ts';
import { insertIntoSql } from './table-sql.ts';

/** A DuckDB connection: a RunnerSession's, and a statement run with lists of text for parameters. */
export interface TextListRunner extends QueryRunner {
  runWithTextLists(sql: string, lists: (string | null)[][]): Promise<void>;
}

export interface TextListSessionOptions extends RunnerSessionOptions<TextListRunner> {
  /** The SQL reading parameter `$<number>` as a list of text (JSON text in DuckDB). */
  textListParam(number: number): string;
}

/** Rows per insert statement: bounds one statement's parameter text, whatever the batch. */
const ROWS_PER_STATEMENT = 10_000;

/**
 * DuckDB's session: rows inserted a column at a time, one list parameter per column, unnested and
 * cast to the column's type, so a statement has as many parameters as the table has columns.
 */
export class TextListSession extends RunnerSession<TextListRunner> {
  constructor(private readonly textLists: TextListSessionOptions) {
    super(textLists);
  }

  async insert(qualified: string, columns: SqlColumn[], rows: SqlValue[][], conflict: string): Promise<void> {
    const unnested = columns.map((column, i) => `unnest(${this.textLists.textListParam(i + 1)})::${column.sqlType}`);
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
}

/** Numbers and booleans as their SQL literal text (a JavaScript number's text reads back as the same number). */
function asText(value: SqlValue): string | null {
  return value === null || typeof value === 'string' ? value : String(value);
}
