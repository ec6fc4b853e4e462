import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { CloudError } from '../errors.ts';
import { type AnyDatabase, type Backend, Lazy, missingTable, quoteIdentifier } from './backend.ts';
import { CONNECT_TIMEOUT_MS, connectPostgres, type PostgresSettings, readPostgresSettings } from '../../hosted/sync/destinations/postgres-connection.ts';
import { type Configuration, optionalString, secretField } from './config.ts';
import type { DeclaredColumn } from './values.ts';

const CURSOR = 'plugboard_dataset';

/**
 * A PostgreSQL destination's database, read through one pool: the engine's queries, and each
 * dataset on a connection of its own through a server-side cursor, fetched in batches (pg-cursor,
 * which Kysely's own stream() needs, is not installed: DECLARE and FETCH do the same).
 */
export function openPostgresBackend(config: Configuration, secrets: Record<string, string> | undefined): Backend {
  const settings = readPostgresSettings(config, secretField(config, 'postgres', 'password', secrets));
  const schema = optionalString(config, 'postgres', 'schema', 'public');
  const pool = new Lazy(() => createPool(settings));
  const engine = new Kysely<AnyDatabase>({ dialect: new PostgresDialect({ pool: pool.forEngine }) });
  return {
    engine,
    databaseName: settings.database,
    schemaName: schema,
    async *read(table, batchSize, convert) {
      const select = `SELECT * FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
      const client = await (await pool.get()).connect();
      let inTransaction = false;
      let cursorOpen = false;
      try {
        await client.query('BEGIN READ ONLY');
        inTransaction = true;
        const columns = (
          await client.query<DeclaredColumn>(
            'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
            [schema, table],
          )
        ).rows;
        if (columns.length === 0) throw missingTable(table, schema);
        const toRecord = convert(columns);
        // WITH HOLD: the commit keeps the cursor's rows (on the server, spilled to disk past work_mem) and lets go of
        // the table's lock, so a reader slower than the sync never holds up its swap (the sync gives up on a lock after a minute).
        await client.query(`DECLARE ${CURSOR} NO SCROLL CURSOR WITH HOLD FOR ${select}`);
        cursorOpen = true;
        await client.query('COMMIT');
        inTransaction = false;
        const size = Math.max(1, Math.floor(batchSize));
        for (;;) {
          const { rows } = await client.query<Record<string, unknown>>(`FETCH FORWARD ${size} FROM ${CURSOR}`);
          if (rows.length > 0) yield rows.map(toRecord);
          if (rows.length < size) break;
        }
      } finally {
        // Read through, ended early (a break) or failed: the cursor and any transaction go; a connection that cannot say so is dropped.
        const ok = async (statement: string) =>
          client.query(statement).then(
            () => true,
            () => false,
          );
        let broken = false;
        if (inTransaction) broken = !(await ok('ROLLBACK'));
        else if (cursorOpen) broken = !(await ok(`CLOSE ${CURSOR}`));
        client.release(broken);
      }
    },
    async close() {
      await engine.destroy();
      await (await pool.leftToClose())?.end();
    },
  };
}

/**
 * The pool, once a first connection proved the settings (so a bad host or password fails here, in
 * one clear error). `prefer` tries TLS first and falls back to plain only when the server has no TLS
 * at all, as libpq (and the destination) do.
 */
async function createPool(settings: PostgresSettings): Promise<pg.Pool> {
  const base: pg.PoolConfig = {
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.username,
    password: settings.password,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'plugboard-cloud-client',
  };
  try {
    return await connectPostgres(settings, (ssl) => provenPool({ ...base, ssl }));
  } catch (error) {
    throw new CloudError((error as Error).message);
  }
}

async function provenPool(config: pg.PoolConfig): Promise<pg.Pool> {
  const pool = new pg.Pool(config);
  // An idle client's connection lost (a server restart) must not crash the process: the pool replaces it.
  pool.on('error', () => undefined);
  try {
    (await pool.connect()).release();
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
