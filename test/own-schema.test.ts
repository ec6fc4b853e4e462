import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server/start.ts';
import { DATA_KEYS, testServerConfig } from './helpers/hosted-fixture.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/**
 * On PostgreSQL, Plugboard's tables live in a schema of their own (`plugboard` unless one is
 * configured), so a destination's table named like one of them is never theirs; an install whose
 * tables are still in `public` keeps them there and is told how to move them.
 */
describe.runIf(TEST_DATABASE_URL)("Plugboard's own PostgreSQL schema", () => {
  const name = `plugboard_schema_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://localhost/test');
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-schema-'));
  const admin = async (sql: string, databaseUrl = TEST_DATABASE_URL!) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const start = async (databaseSchema?: string) => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const server = await startServer(
      { ...testServerConfig({ dataDir, databaseUrl: url.href }), port: 0 },
      {
        logger,
        env: { PLUGBOARD_DATA_KEYS: DATA_KEYS },
        ...(databaseSchema ? { databaseSchema } : {}),
      },
    );
    return { server, warnings };
  };
  const tablesIn = async (schema: string) =>
    (await admin(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}'`, url.href)).map((row) => row.table_name);

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
  });
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes its tables in the schema plugboard, none in public, and its job queues beside them', async () => {
    const { server } = await start();
    await server.close();
    expect(await tablesIn('plugboard')).toEqual(expect.arrayContaining(['signing_keys', 'workspaces']));
    expect(await tablesIn('public')).toEqual([]);
    expect(await tablesIn('plugboard_jobs')).not.toEqual([]);
  });

  it('leaves an earlier install in public, saying how to move it, and uses plugboard once moved', async () => {
    await admin('DROP SCHEMA plugboard CASCADE; DROP SCHEMA plugboard_jobs CASCADE', url.href);
    // An install made before: its tables in public.
    await (await start('public')).server.close();
    const legacy = await start();
    const { organization_id } = legacy.server.firstApplication ?? { organization_id: undefined };
    await legacy.server.close();
    expect(organization_id).toBeUndefined();
    expect(legacy.warnings.join('')).toContain('ALTER SCHEMA public RENAME TO plugboard; CREATE SCHEMA public;');
    expect(await tablesIn('plugboard')).toEqual([]);
    await admin('ALTER SCHEMA public RENAME TO plugboard; CREATE SCHEMA public;', url.href);
    const moved = await start();
    await moved.server.close();
    expect([moved.warnings, moved.server.firstApplication]).toEqual([[], null]);
    expect(await tablesIn('public')).toEqual([]);
  });
});
