import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import type { SearchHit } from '../core/hosted/context-store/context-store.ts';
import type { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { Runtime } from '../core/runtime/runtime.ts';
import { SeededRandom } from '../testing/seeded-random.ts';
import { openTestContextStore } from './helpers/context-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';
import { type Document, documentsOf, type ReferenceQuery, referenceSearch } from './helpers/search-reference.ts';

/**
 * Searches whose one condition is a common word or substring: SQLite finds the first pages by walking
 * the id index and checking each record, the later ones (a large offset) from the text index. Both
 * plans must give the reference's answer, page after page, across the switch.
 */

const random = SeededRandom.derive(7, 'context-store-walk');
const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
const messages = Array.from({ length: 3000 }, (_, i) => ({
  channel_id: `C${i % 3}`,
  ts: `1700000000.${String(i).padStart(6, '0')}`,
  type: 'message',
  text: Array.from({ length: 3 }, () => random.pick(WORDS)).join(' '),
}));
const users = Array.from({ length: 600 }, (_, i) => ({
  id: `U${String(random.int(0, 1e9)).padStart(10, '0')}${i}`,
  name: `${random.pick(['ann', 'bob', 'cat'])}.${random.pick(['smith', 'jones'])}${i}`,
}));

let catalogs: Map<string, FieldCatalog>;

beforeAll(async () => {
  const runtime = new Runtime();
  for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
  catalogs = runtime.plugin('chat').searchCatalogs();
});

describe.each(BACKENDS)('a lone common text condition on %s', (backend) => {
  let database: TestDatabase;
  let store: Awaited<ReturnType<typeof createContextStore>>;
  const connectorId = randomUUID();
  const documents = {} as Record<string, Document[]>;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = await openTestContextStore(database);
    for (const [entity, records] of [
      ['channel_messages', messages],
      ['users', users],
    ] as const) {
      const catalog = catalogs.get(entity)!;
      await store.prepare(catalog);
      await store.write(connectorId, catalog, records);
      await store.setEntityState(connectorId, entity, 'ready', new Date());
      documents[entity] = documentsOf(catalog, records);
    }
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** Every page of the query, and the SQL of each page's search. */
  async function pages(entity: string, query: ReferenceQuery, limit: number) {
    const catalog = catalogs.get(entity)!;
    const all = vi.spyOn(store.reader, 'all');
    const hits: SearchHit[] = [];
    const statements: string[] = [];
    let cursor: string | undefined;
    do {
      all.mockClear();
      const page = await store.search(connectorId, catalog, planSearch(catalog, { query, limit, ...(cursor ? { cursor } : {}) }));
      statements.push(all.mock.calls.map(([sql]) => sql).find((sql) => sql.includes('FROM context_records r'))!);
      hits.push(...page.hits);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    all.mockRestore();
    return { hits, statements };
  }

  it('keyword: the first pages walk (a probe per record), later pages collect from the index, together the reference', async () => {
    const query = { filter: { keyword: { text: 'Alpha' } } };
    const expected = referenceSearch(documents.channel_messages!, query);
    expect(expected.length).toBeGreaterThan(1500);
    const { hits, statements } = await pages('channel_messages', query, 20);
    expect(hits.map((hit) => [hit.id, hit.score])).toEqual(expected.map((hit) => [hit.id, hit.score]));
    expect(hits.map((hit) => hit.data)).toEqual(expected.map((hit) => hit.data));
    if (backend === 'sqlite') {
      const walked = statements.map((sql) => sql.includes('rowid = r.rid'));
      expect(walked[0]).toBe(true);
      expect(walked.at(-1)).toBe(false);
    }
  });

  it('like on a substring field: the same, without the trigram index while walking', async () => {
    const query = { filter: { like: { name: 'SMIT' } } };
    const expected = referenceSearch(documents.users!, query);
    expect(expected.length).toBeGreaterThan(200);
    const { hits, statements } = await pages('users', query, 5);
    expect(hits).toEqual(expected);
    if (backend === 'sqlite') {
      const walked = statements.map((sql) => !sql.includes('context_trigrams'));
      expect(walked[0]).toBe(true);
      expect(walked.at(-1)).toBe(false);
    }
  });

  it('a rare word is collected from the index on the first page', async () => {
    const catalog = catalogs.get('channel_messages')!;
    await store.write(connectorId, catalog, [{ channel_id: 'C9', ts: '1700000001.000001', type: 'message', text: 'omega alpha' }]);
    const { hits, statements } = await pages('channel_messages', { filter: { keyword: { text: 'omega' } } }, 50);
    expect(hits.map((hit) => hit.id)).toEqual(['C9:1700000001.000001']);
    if (backend === 'sqlite') expect(statements[0]).not.toContain('rowid = r.rid');
  });
});
