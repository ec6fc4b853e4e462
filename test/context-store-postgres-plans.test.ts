import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import type { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import type { PlannerSettings } from '../core/hosted/context-store/postgres-plan-settings.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import { migrate } from '../core/stores/migrate.ts';
import { PostgresDriver } from '../core/stores/postgres-driver.ts';
import type { SqlDriver, SqlValue } from '../core/stores/sql-driver.ts';
import { SeededRandom } from '../testing/seeded-random.ts';
import { openTestContextStore } from './helpers/context-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';
import { documentsOf, type ReferenceQuery, referenceSearch } from './helpers/search-reference.ts';

/**
 * The plans PostgreSQL picks for search shapes that were slow at a million records: asserted on
 * EXPLAIN of the very statement and settings a search runs, only where the plan does not hinge on
 * costs (an index the planner can use, a sort it may not make, statistics it has), never on timings.
 * Each answer is also checked against the reference. And the migration that moved the words.
 */

const ZONES = ['Europe/London', 'Europe/Berlin', 'Asia/Tokyo', 'America/Chicago', 'America/Denver', 'Australia/Sydney'];
const random = SeededRandom.derive(11, 'context-store-postgres-plans');
/** Made-up names, enough of them that a word is as rare among the users as a name is among people. */
const syllables = ['ka', 'lo', 'mi', 'ren', 'sa', 'tu', 'vo', 'bel', 'dor', 'fi', 'gan', 'hu'];
const nameOf = () => Array.from({ length: random.int(2, 3) }, () => random.pick(syllables)).join('');
const firstNames = Array.from({ length: 150 }, nameOf);
const lastNames = Array.from({ length: 150 }, nameOf);
const users = Array.from({ length: 3000 }, (_, i) => {
  const first = i < 40 ? 'jonas' : random.pick(firstNames);
  const last = i < 40 ? 'hughes' : random.pick(lastNames);
  const zone = random.chance(0.1) ? null : random.pick(ZONES);
  return {
    id: `U${String(i).padStart(8, '0')}`,
    name: `${first}.${last}${i}`,
    real_name: `${first} ${last}`,
    tz: zone,
    tz_offset: zone === null ? null : ZONES.indexOf(zone) * 3600 - 18_000,
    is_admin: random.chance(0.05),
    deleted: random.chance(0.07),
    updated: 1_690_000_000 + random.int(0, 10_000_000),
    profile: { email: `${first}.${last}${i}@example.com`, real_name: `${first} ${last}` },
  };
});

/** Planner settings ours or the test's, as SET LOCAL statements. */
const setLocal = (settings: PlannerSettings) =>
  Object.entries(settings)
    .map(([name, value]) => `SET LOCAL ${name} = ${value}`)
    .join('; ');

describe.skipIf(!process.env.TEST_DATABASE_URL)('search plans on PostgreSQL', () => {
  let database: TestDatabase;
  let store: Awaited<ReturnType<typeof createContextStore>>;
  let catalog: FieldCatalog;
  const connectorId = randomUUID();

  beforeAll(async () => {
    const runtime = new Runtime();
    for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
    catalog = runtime.plugin('chat').searchCatalogs().get('users')!;
    database = await createTestDatabase('postgres');
    store = await openTestContextStore(database);
    await store.prepare(catalog);
    await store.write(connectorId, catalog, users);
    await store.setEntityState(connectorId, 'users', 'ready', new Date());
    await store.optimize();
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /**
   * The search's answer (checked against the reference) and the plan of its page statement, under
   * the search's own planner settings and then `extra` (the test's, e.g. to rule out a scan).
   */
  async function searched(query: ReferenceQuery, extra: PlannerSettings = {}): Promise<string> {
    const all = vi.spyOn(store.reader, 'all');
    const page = await store.search(connectorId, catalog, planSearch(catalog, { query, limit: 20 }));
    const call = all.mock.calls.find(([sql]) => sql.includes('FROM context_records r'))!;
    all.mockRestore();
    expect(page.hits).toEqual(referenceSearch(documentsOf(catalog, users), query).slice(0, 20));
    const [sql, params, , settings] = call as [string, SqlValue[], unknown, PlannerSettings | undefined];
    return store.driver.transaction(async (tx) => {
      await tx.exec(setLocal({ ...settings, ...extra }));
      const rows = await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('a nested and/or/not no index narrows walks the id index and stops at the page: no sort, no worker, no JIT', async () => {
    const plan = await searched({
      filter: {
        and: [{ or: [{ eq: { tz: 'Asia/Tokyo' } }, { eq: { is_admin: true } }] }, { not: { eq: { deleted: true } } }, { gte: { tz_offset: -18_000 } }],
      },
    });
    expect(plan).toMatch(/Index Scan using context_records_id on context_records r/);
    expect(plan).not.toMatch(/Sort|Gather|JIT/);
  });

  it('`in` is one array parameter, and the indexed field has statistics: common values walk the id index, rare ones read the field index', async () => {
    const common = await searched({ filter: { in: { tz: ZONES.slice(0, 3) } } });
    expect(common).toMatch(/Index Scan using context_records_id on context_records r/);
    expect(common).toMatch(/Filter: .*tz.* = ANY \(/);
    // No user has these: the statistics say so, and the tz index finds nothing at once.
    const rare = await searched({ filter: { in: { tz: ['Pacific/Nowhere', 'Antarctica/Nobody'] } } });
    expect(rare).toMatch(/Index Cond: .*tz.* = ANY \(/);
    expect(rare).not.toMatch(/context_records_id/);
  });

  it('words and substrings are found in indexes on the records themselves; a fuzzy score is read off the candidate’s own words', async () => {
    expect(await searched({ filter: { keyword: { real_name: 'hughes' } } })).toMatch(/Bitmap Index Scan on context_words_[0-9a-f]{16}\b/);
    const like = await searched({ filter: { like: { name: 'ughe' } } });
    expect(like).toMatch(/Bitmap Index Scan on context_trgm_[0-9a-f]{16}\b/);
    expect(like).toMatch(/Index Cond: \(\(data #>> '\{name\}'::text\[\]\) ~~\* /);
    // The word index or a read of the entity: the planner's choice, by the entity's size. Either way the score needs no other table.
    const fuzzy = await searched({ filter: { fuzzy: { real_name: 'jonsa' } } });
    expect(fuzzy).toMatch(/CASE WHEN \(r\.words @@ '''\d+:jonsa'''::tsquery\)/);
    expect(fuzzy).not.toMatch(/SubPlan|Join|Nested Loop/);
  });
  it('a lone like checks the first records in id order, and collects from the trigram index only when they did not fill the page', async () => {
    // Every one of the first 40 users is a Hughes: the walk fills the page. Nobody is a "zzq": the candidates are collected.
    for (const name of ['ughe', 'zzq']) {
      const plan = await searched({ filter: { like: { name } } });
      expect(plan).toMatch(/CTE walk\n.*\n(.*\n)*.*Index Scan using context_records_id on context_records/);
      expect(plan).toMatch(/One-Time Filter: \(\$\d+ < '?21'?(::bigint)?\)\n\s*->\s+Bitmap Heap Scan on context_records r/);
    }
  });

  it('a page of documents becomes text after the page is cut, not before the sort', async () => {
    const plan = await searched({ filter: { fuzzy: { real_name: 'hugehs' } } });
    expect(plan.split('\n')[0]).toMatch(/^Subquery Scan on page/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL migration 004: text rows into the records’ words', () => {
  let database: TestDatabase;

  afterAll(async () => {
    await database?.drop();
  });

  it('each text row’s words become its record’s, prefixed with the slot: every field is searched as before', async () => {
    const runtime = new Runtime();
    for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
    const catalog = runtime.plugin('chat').searchCatalogs().get('users')!;
    database = await createTestDatabase('postgres');
    const old = PostgresDriver.connect(database.databaseUrl!, database.schema!);
    const slotOf = (name: string) => catalog.textFields.find((field) => field.name === name)!.textSlot!;
    const user = { id: 'U1', name: 'ann.smith', real_name: 'Ann Jones' };
    try {
      await migrateTo(old, 3);
      await old.run("INSERT INTO context_stores (connector_id) VALUES ('connector-a')");
      const row = await old.get<{ rid: string }>(
        "INSERT INTO context_records (store_key, entity, id, data) SELECT store_key, 'users', 'U1', ?::jsonb FROM context_stores RETURNING rid",
        [JSON.stringify(catalog.documentOf(user, 'U1'))],
      );
      for (const [field, words] of [
        ['name', ['ann', 'smith']],
        ['real_name', ['ann', 'jones']],
      ] as const) {
        await old.run('INSERT INTO context_text (rid, slot, words) VALUES (?, ?, array_to_tsvector(?::text[]))', [
          row!.rid,
          slotOf(field),
          `{${words.join(',')}}`,
        ]);
      }
      await old.run("INSERT INTO context_entities (connector_id, entity, status, records, synced_at) VALUES ('connector-a', 'users', 'ready', 1, ?)", [
        new Date().toISOString(),
      ]);
    } finally {
      await old.close();
    }
    const store = await openTestContextStore(database);
    try {
      await store.prepare(catalog);
      const ids = async (filter: Record<string, unknown>) =>
        (await store.search('connector-a', catalog, planSearch(catalog, { query: { filter } }))).hits.map((hit) => hit.id);
      expect(await ids({ keyword: { real_name: 'jones' } })).toEqual(['U1']);
      expect(await ids({ keyword: { real_name: 'smith' } })).toEqual([]);
      expect(await ids({ keyword: { name: 'smith' } })).toEqual(['U1']);
      expect(await ids({ fuzzy: { real_name: 'jnoes' } })).toEqual(['U1']);
      expect(await store.driver.get("SELECT to_regclass('context_text') AS t")).toEqual({ t: null });
    } finally {
      await store.close();
    }
  });
});

/** The context store's PostgreSQL migrations up to `version` (and the shared ones), as a store of that version had them. */
async function migrateTo(driver: SqlDriver, version: number): Promise<void> {
  const dir = new URL('../core/hosted/context-store/migrations/', import.meta.url);
  const upTo = mkdtempSync(join(tmpdir(), 'plugboard-migration-'));
  try {
    for (const name of readdirSync(new URL('./postgres/', dir))) {
      if (Number(name.split('_')[0]) <= version) copyFileSync(new URL(`./postgres/${name}`, dir), join(upTo, name));
    }
    await migrate(driver, { dir: pathToFileURL(`${upTo}/`), table: 'context_store_migrations', lock: 7_263_105 });
    await migrate(driver, { dir: new URL('./common/', dir), table: 'context_store_common_migrations', lock: 7_263_105 });
  } finally {
    rmSync(upTo, { recursive: true, force: true });
  }
}
