import { performance } from 'node:perf_hooks';
import { NotReadyError } from '../../errors.ts';
import type { StoredRecord } from '../../sdk/index.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import { compileSearch, narrowedByText, walkableText } from './compile-search.ts';
import type { ContextStore, EntityState, ReplicationStatus, SearchPage } from './context-store.ts';
import { expressionIndexes } from './expression-indexes.ts';
import type { FieldCatalog } from './field-catalog.ts';
import { projectFields } from './projection.ts';
import type { DocumentRow } from './record-writers.ts';
import { postgresEntityObjects } from './postgres-entity-objects.ts';
import { likeWalkFirst, postgresPlanSettings } from './postgres-plan-settings.ts';
import { postgresDialect, sqliteDialect } from './search-dialect.ts';
import { DEFAULT_SEARCH_BUDGET_MS, SearchBudget, type SearchReader } from './search-budget.ts';
import { encodeCursor, type SearchPlan } from './search-query.ts';
import type { SqliteWriteThread } from './sqlite-write-thread.ts';
import { writeBatch } from './write-batch.ts';

/** How long a caller is told to wait before searching an entity whose first replication is running. */
const NOT_READY_RETRY_SECONDS = 5;
/** Advisory-lock key serialising index creation across instances sharing a PostgreSQL database. */
const PREPARE_LOCK = 7_263_106;
/**
 * What checking one record costs when walking, in units of collecting one candidate from the text
 * index (measured on SQLite): a word probe seeks in the FTS index, a `like` just reads the record.
 */
const WALK_STEP_COST = { words: 20, trigrams: 1 } as const;
/**
 * Merges the pending lists of the records' GIN indexes (words, trigrams) into the indexes. A GIN index
 * takes new rows into an unsorted list, merged by vacuum or once it reaches 4 MB; until then every
 * search reads the whole list (after a replication, thousands of rows: a fuzzy query's hundreds of
 * words were checked against each). A manual ANALYZE, unlike autovacuum's, leaves the list as it is.
 */
const GIN_PENDING_LISTS_MERGED = `SELECT gin_clean_pending_list(i.indexrelid::regclass)
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE i.indrelid = 'context_records'::regclass AND a.amname = 'gin'`;
/** Records per write transaction: short enough not to hold SQLite's write lock long. */
const WRITE_BATCH = 5000;

export interface SqlContextStoreOptions {
  /** SQLite: writes go through a thread of their own (PostgreSQL's already run in the database server). */
  writeThread?: SqliteWriteThread;
  /** Where a search's statements that may be slow run, within its budget: SQLite's reader threads, PostgreSQL's statement_timeout. */
  reader: SearchReader;
  /** How long one search may take (default DEFAULT_SEARCH_BUDGET_MS); past it, a 422 query_too_expensive. */
  searchBudgetMs?: number;
}

/** The context store on one SQL database; the dialect picks the text indexes and record writer. */
export class SqlContextStore implements ContextStore {
  readonly dialect: 'sqlite' | 'postgres';
  private readonly searchDialect;
  /** Each connector's key in context_stores (keys never change once given). */
  private readonly storeKeys = new Map<string, number>();
  private readonly writeThread: SqliteWriteThread | undefined;
  /** Where searches read (see SqlContextStoreOptions.reader). */
  readonly reader: SearchReader;
  private readonly searchBudgetMs: number;

  constructor(
    readonly driver: SqlDriver,
    options: SqlContextStoreOptions,
  ) {
    this.dialect = driver.dialect;
    this.searchDialect = this.dialect === 'sqlite' ? sqliteDialect : postgresDialect;
    this.writeThread = options.writeThread;
    this.reader = options.reader;
    this.searchBudgetMs = options.searchBudgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
  }

  async prepare(catalog: FieldCatalog): Promise<void> {
    // Serialised across instances: two CREATE INDEX IF NOT EXISTS of one name at once fail on PostgreSQL.
    await this.driver.transaction(async (tx) => {
      const statements = [...expressionIndexes(this.searchDialect, catalog)];
      if (this.dialect === 'postgres') statements.push(...postgresEntityObjects(catalog, await trigramSchema(tx)));
      for (const statement of statements) await tx.exec(statement);
    }, PREPARE_LOCK);
  }

  async write(connectorId: string, catalog: FieldCatalog, records: StoredRecord[]): Promise<string[]> {
    // Last one wins when a batch names an id twice (a message edited between two pages).
    const byId = new Map<string, DocumentRow>();
    for (const record of records) {
      const id = catalog.idOf(record);
      if (id !== undefined) byId.set(id, { id, document: catalog.documentOf(record, id) });
    }
    const rows = [...byId.values()];
    const storeKey = await this.storeKey(connectorId, true);
    const owner = { connectorId, storeKey: storeKey! };
    for (let start = 0; start < rows.length; start += WRITE_BATCH) {
      const batch = rows.slice(start, start + WRITE_BATCH);
      await (this.writeThread ? this.writeThread.write(owner, catalog, batch) : writeBatch(this.driver, owner, catalog, batch));
    }
    return [...byId.keys()];
  }

  /** The connector's key in context_stores, given on its first write; undefined while it has none. */
  private async storeKey(connectorId: string, create: boolean): Promise<number | undefined> {
    const known = this.storeKeys.get(connectorId);
    if (known !== undefined) return known;
    if (create) await this.driver.run('INSERT INTO context_stores (connector_id) VALUES (?) ON CONFLICT (connector_id) DO NOTHING', [connectorId]);
    const row = await this.driver.get<{ store_key: number }>('SELECT store_key FROM context_stores WHERE connector_id = ?', [connectorId]);
    if (row) this.storeKeys.set(connectorId, Number(row.store_key));
    return row ? Number(row.store_key) : undefined;
  }

  async sweep(connectorId: string, entity: string, keep: ReadonlySet<string>): Promise<number> {
    const storeKey = await this.storeKey(connectorId, false);
    if (storeKey === undefined) return 0;
    const stored = await this.driver.all<{ rid: number; id: string }>('SELECT rid, id FROM context_records WHERE store_key = ? AND entity = ?', [
      storeKey,
      entity,
    ]);
    const gone = stored.filter((row) => !keep.has(row.id)).map((row) => Number(row.rid));
    for (let start = 0; start < gone.length; start += WRITE_BATCH) {
      const batch = gone.slice(start, start + WRITE_BATCH);
      await this.driver.run(`DELETE FROM context_records WHERE rid IN (${batch.map(() => '?').join(', ')})`, batch);
    }
    return gone.length;
  }

  async setEntityState(connectorId: string, entity: string, status: ReplicationStatus, synced?: Date): Promise<void> {
    if (!synced) {
      await this.driver.run(
        'INSERT INTO context_entities (connector_id, entity, status) VALUES (?, ?, ?) ON CONFLICT (connector_id, entity) DO UPDATE SET status = excluded.status',
        [connectorId, entity, status],
      );
      return;
    }
    const count = await this.driver.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM context_records WHERE store_key = (SELECT store_key FROM context_stores WHERE connector_id = ?) AND entity = ?',
      [connectorId, entity],
    );
    await this.driver.run(
      `INSERT INTO context_entities (connector_id, entity, status, records, synced_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (connector_id, entity) DO UPDATE SET status = excluded.status, records = excluded.records, synced_at = excluded.synced_at`,
      [connectorId, entity, status, Number(count?.n ?? 0), synced.toISOString()],
    );
  }

  async entityStates(connectorId: string): Promise<Record<string, EntityState>> {
    const rows = await this.driver.all<{ entity: string; status: ReplicationStatus; records: number; synced_at: string | null }>(
      'SELECT entity, status, records, synced_at FROM context_entities WHERE connector_id = ? ORDER BY entity',
      [connectorId],
    );
    return Object.fromEntries(rows.map((row) => [row.entity, { status: row.status, records: Number(row.records), synced_at: row.synced_at }]));
  }

  async checkpoint(connectorId: string, key: string): Promise<string | undefined> {
    return (await this.driver.get<{ value: string }>('SELECT value FROM context_checkpoints WHERE connector_id = ? AND key = ?', [connectorId, key]))?.value;
  }

  async saveCheckpoint(connectorId: string, key: string, value: string): Promise<void> {
    await this.driver.run(
      'INSERT INTO context_checkpoints (connector_id, key, value) VALUES (?, ?, ?) ON CONFLICT (connector_id, key) DO UPDATE SET value = excluded.value',
      [connectorId, key, value],
    );
  }

  async search(connectorId: string, catalog: FieldCatalog, plan: SearchPlan): Promise<SearchPage> {
    const started = performance.now();
    const budget = new SearchBudget(this.searchBudgetMs, plan.cost);
    const state = await this.driver.get<{ synced_at: string | null; records: number }>(
      'SELECT synced_at, records FROM context_entities WHERE connector_id = ? AND entity = ?',
      [connectorId, catalog.entity],
    );
    if (!state?.synced_at) {
      throw new NotReadyError(
        `${catalog.entity} has not been replicated yet: its first replication has not finished. Watch GET .../replication and search again when it is ready.`,
        NOT_READY_RETRY_SECONDS,
      );
    }
    // Only fuzzy expands words over the alphabets: any other search is spared the round trip.
    const alphabets = new Map(
      plan.cost.fuzzyWords === 0
        ? []
        : (
            await this.driver.all<{ slot: number; chars: string }>('SELECT slot, chars FROM context_alphabets WHERE connector_id = ? AND entity = ?', [
              connectorId,
              catalog.entity,
            ])
          ).map((row) => [Number(row.slot), row.chars]),
    );
    // A connector that never wrote a record has no key: nothing is stored under -1.
    const storeKey = (await this.storeKey(connectorId, false)) ?? -1;
    const textDriven = await this.textDriven(connectorId, plan, budget);
    const walkFirst = this.dialect === 'postgres' ? likeWalkFirst(plan, Number(state.records)) : undefined;
    const compiled = compileSearch(this.searchDialect, plan, storeKey, alphabets, textDriven, walkFirst);
    const settings = this.dialect === 'postgres' ? postgresPlanSettings(plan.filter, catalog, { byId: compiled.byId, textDriven }) : undefined;
    const rows = await this.reader.all<{ id: string; data: string; score: number | string }>(compiled.sql, compiled.params, budget, settings);
    const more = rows.length > plan.limit;
    const hits = rows.slice(0, plan.limit).map((row) => ({
      id: row.id,
      score: roundScore(Number(row.score)),
      data: projectFields(JSON.parse(row.data) as Record<string, unknown>, plan.fields),
    }));
    return {
      hits,
      next_cursor: more ? encodeCursor(plan.fingerprint, plan.offset + plan.limit) : null,
      took_ms: Math.round((performance.now() - started) * 1000) / 1000,
    };
  }

  async optimize(): Promise<void> {
    // SQLite: a sampled ANALYZE (cheap at any size); PostgreSQL samples by itself. Without the words'
    // statistics PostgreSQL takes every word for rare, sorting a common word's every match.
    if (this.dialect === 'sqlite') {
      await this.driver.exec('PRAGMA analysis_limit = 1000; ANALYZE');
      return;
    }
    await this.driver.exec('ANALYZE context_records');
    await this.driver.exec(GIN_PENDING_LISTS_MERGED);
  }

  /**
   * SQLite: whether to find the hits from the text index, or to walk the entity in id order checking
   * each record (a lone common word or substring: the page fills long before the end). Walking reads
   * about wanted × stored / candidates records, collecting reads every candidate: their count, cheap
   * to take from the index up to where walking wins, decides.
   */
  private async textDriven(connectorId: string, plan: SearchPlan, budget: SearchBudget): Promise<boolean> {
    const narrowed = narrowedByText(plan.filter);
    const text = walkableText(plan.filter);
    if (this.dialect !== 'sqlite' || !text || plan.sort.length > 0) return narrowed;
    const stored = await this.driver.get<{ records: number }>('SELECT records FROM context_entities WHERE connector_id = ? AND entity = ?', [
      connectorId,
      plan.entity,
    ]);
    const wanted = plan.offset + plan.limit + 1;
    const walkWins = Math.ceil(Math.sqrt(WALK_STEP_COST[text.index] * wanted * Number(stored?.records ?? 0)));
    const params: string[] = [];
    const bind = (value: string | number) => {
      params.push(String(value));
      return '?';
    };
    const dialect = this.searchDialect;
    const candidates =
      text.index === 'words' ? dialect.wordMatch(text.slot, bind(dialect.word(text.value, text.slot))) : dialect.trigramMatch(text.slot, text.value, bind)!;
    const [counted] = await this.reader.all<{ n: number }>(`SELECT COUNT(*) AS n FROM (${candidates} LIMIT ${walkWins})`, params, budget);
    return Number(counted?.n ?? 0) < walkWins;
  }

  clear(connectorId: string): Promise<void> {
    return this.remove(connectorId, ['context_alphabets', 'context_entities', 'context_checkpoints']);
  }

  async deleteConnector(connectorId: string): Promise<void> {
    await this.remove(connectorId, ['context_stores', 'context_alphabets', 'context_entities', 'context_checkpoints', 'replication_jobs']);
    this.storeKeys.delete(connectorId);
  }

  /** The connector's records (and so their text rows), and its rows of `tables`, in one transaction. */
  private async remove(connectorId: string, tables: string[]): Promise<void> {
    await this.driver.transaction(async (tx) => {
      await tx.run('DELETE FROM context_records WHERE store_key = (SELECT store_key FROM context_stores WHERE connector_id = ?)', [connectorId]);
      for (const table of tables) await tx.run(`DELETE FROM ${table} WHERE connector_id = ?`, [connectorId]);
    });
  }

  async close(): Promise<void> {
    await this.writeThread?.close();
    await this.reader.close();
    await this.driver.close();
  }
}

/** Scores computed in floating point read the same on both databases. */
function roundScore(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}

/** Where pg_trgm lives: `public` as the first migration puts it, elsewhere once an install's schema was renamed. */
async function trigramSchema(tx: SqlDriver): Promise<string> {
  const rows = await tx.all<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'");
  return rows[0]?.schema ?? 'public';
}
