/**
 * One of the SQLite context store's reader threads (see sqlite-read-pool.ts): its own read-only
 * connection to the store's file, answering a search's statements with their rows. WAL lets it read
 * beside the writer thread; the main thread's event loop never waits on a slow query.
 */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { SqlValue } from '../../stores/sql-driver.ts';
import { serveCalls } from '../worker-calls.ts';

/** What the main thread asks: the rows of one statement, an answer once the thread is up, or to close the connection (the last call). */
export type ReadCall = { op: 'all'; sql: string; params: SqlValue[] } | { op: 'ready' } | { op: 'close' };

/** Searches repeat few shapes per connector; their SQL varies with the query, so the cache is bounded. */
const STATEMENT_CACHE_SIZE = 200;

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// As the main connection (sqlite-driver.ts, bulk): pages come straight from the OS page cache.
db.pragma('mmap_size = 2147418112');
db.pragma('cache_size = -65536');
const statements = new Map<string, Database.Statement>();

function statement(sql: string): Database.Statement {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    statements.set(sql, prepared);
  }
  return prepared;
}

serveCalls<ReadCall>(async (call) => {
  if (call.op === 'all') return statement(call.sql).all(...call.params);
  if (call.op === 'close') db.close();
  return undefined;
});
