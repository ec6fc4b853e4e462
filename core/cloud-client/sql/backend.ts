import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { InputError } from '../errors.ts';
import type { DeclaredColumn, RowConverter } from './values.ts';

/** The engine's database type: the tables are the destination's streams, known only at run time. */
// biome-ignore lint/suspicious/noExplicitAny: a destination's tables and columns are only known at run time.
export type AnyDatabase = any;

/** One database kind's reading of a destination: the engine, its names, and a table read in batches. */
export interface Backend {
  readonly engine: Kysely<AnyDatabase>;
  readonly databaseName: string;
  readonly schemaName: string;
  /**
   * The table's rows, converted, in batches of at most `batchSize`, read as one consistent snapshot
   * on a connection of the read's own (so the engine stays free for other queries meanwhile). The
   * table's columns as declared give `convert`. Throws an InputError when there is no such table.
   * Breaking out of the iteration releases what it holds.
   */
  read(table: string, batchSize: number, convert: (columns: DeclaredColumn[]) => RowConverter): AsyncGenerator<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A double-quoted SQL identifier (embedded quotes doubled), as the sync destinations quote theirs. */
export function quoteIdentifier(name: string): string {
  if (name === '' || name.includes('\0')) throw new InputError(`invalid table name ${JSON.stringify(name)}: empty or containing U+0000`, 'tableName');
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `SELECT ... FROM "<schema>"."<table>" AS "<table>"`: the name quoted whole, so a dot or an ` as `
 * in a stream's name (which Kysely's selectFrom would read as a schema or an alias) stays a name.
 */
// biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a select with nothing selected yet.
export function selectTable(engine: Kysely<AnyDatabase>, schema: string, table: string): SelectQueryBuilder<AnyDatabase, AnyDatabase, {}> {
  quoteIdentifier(table);
  // biome-ignore lint/complexity/noBannedTypes: as above.
  return engine.selectFrom(sql.id(schema, table).as(table)) as SelectQueryBuilder<AnyDatabase, AnyDatabase, {}>;
}

export function missingTable(table: string, schema: string): InputError {
  return new InputError(`no table ${JSON.stringify(table)} in schema ${JSON.stringify(schema)} of the destination`, 'tableName');
}

/**
 * A resource made on first use, once (again after a failure), and whether Kysely's driver took it:
 * Kysely's destroy() closes what its driver initialized, and only that.
 */
export class Lazy<T> {
  private made: Promise<T> | undefined;
  /** True once the engine's driver asked for it: engine.destroy() will close it. */
  takenByEngine = false;

  constructor(private readonly make: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.made) {
      const made = this.make();
      this.made = made;
      made.catch(() => {
        if (this.made === made) this.made = undefined;
      });
    }
    return this.made;
  }

  /** For the engine's dialect: the resource, marked as the engine's to close. */
  forEngine = (): Promise<T> => {
    this.takenByEngine = true;
    return this.get();
  };

  /** The resource when it was made and the engine does not own it (so the caller must close it). */
  async leftToClose(): Promise<T | undefined> {
    if (this.takenByEngine || !this.made) return undefined;
    return this.made.catch(() => undefined);
  }
}

/** Yields to the event loop: a long read of a synchronous driver must not starve everything else. */
export function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
