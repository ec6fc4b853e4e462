/**
 * What keeps searches from starving the server, on SQLite and PostgreSQL: the limits on what makes a
 * query costly (each a 422 naming it), the time budget (a 422 query_too_expensive naming what made
 * the query costly), and, on SQLite, the reader threads that keep the event loop free while a slow
 * query runs. No timing is asserted: a budget of 1 ms is passed by any real query.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlugboardError, ValidationError, type ValidationIssue } from '../core/errors.ts';
import { createContextStore } from '../core/hosted/context-store/create-context-store.ts';
import type { FieldCatalog } from '../core/hosted/context-store/field-catalog.ts';
import { QueryTooExpensiveError, SearchBudget } from '../core/hosted/context-store/search-budget.ts';
import { LIKE_PATTERN_MAX_CHARS, SEARCH_LIMITS } from '../core/hosted/context-store/search-cost.ts';
import { planSearch } from '../core/hosted/context-store/search-query.ts';
import { SqliteReadPool } from '../core/hosted/context-store/sqlite-read-pool.ts';
import { createRuntime } from '../index.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';

const MESSAGES = 3000;
const QUERY_LOC = ['body', 'params', 'query'];

/**
 * Patterns no message holds (no digit follows an "h"), each checked on every message: every character
 * is one the messages have, so the store cannot rule a pattern out by its alphabet alone.
 */
const missing = (index: number) => ({ like: { text: `%a%h%${index}%` } });
/** The most expensive search the limits let through: as many sort keys and like patterns as allowed. */
const WORST_ALLOWED = {
  filter: { or: Array.from({ length: SEARCH_LIMITS.likePatterns }, (_, index) => missing(index)) },
  sort: [{ text: 'desc' }, { user: 'asc' }, { ts: 'desc' }, { type: 'asc' }],
};

let catalog: FieldCatalog;

beforeAll(async () => {
  const runtime = await createRuntime();
  catalog = runtime.plugin('chat').searchCatalogs().get('channel_messages')!;
});

function issuesOf(query: Record<string, unknown>): ValidationIssue[] {
  try {
    planSearch(catalog, { query });
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error(`${JSON.stringify(query).slice(0, 200)} was accepted`);
}

describe('search limits', () => {
  const many = (count: number, make: (index: number) => unknown) => Array.from({ length: count }, (_, index) => make(index));

  it.each([
    ['sort keys', { sort: many(SEARCH_LIMITS.sortKeys + 1, () => ({ ts: 'asc' })) }, 'value_error.too_many_sort_keys', [...QUERY_LOC, 'sort']],
    ['like patterns', { filter: { or: many(SEARCH_LIMITS.likePatterns + 1, missing) } }, 'value_error.too_many_like_patterns', [...QUERY_LOC, 'filter']],
    [
      'fuzzy words',
      { filter: { and: many(2, () => ({ fuzzy: { text: many(SEARCH_LIMITS.fuzzyWords / 2 + 1, (index) => `word${index}`).join(' ') } })) } },
      'value_error.too_many_fuzzy_words',
      [...QUERY_LOC, 'filter'],
    ],
    [
      'in values',
      { filter: { or: many(2, () => ({ in: { user: many(SEARCH_LIMITS.inValues / 2 + 1, (index) => `U${index}`) } })) } },
      'value_error.too_many_in_values',
      [...QUERY_LOC, 'filter'],
    ],
    [
      'conditions',
      { filter: { or: many(SEARCH_LIMITS.conditions, (index) => ({ eq: { user: `U${index}` } })) } },
      'value_error.too_many_conditions',
      [...QUERY_LOC, 'filter', 'or', SEARCH_LIMITS.conditions - 1, 'eq', 'user'],
    ],
  ])('more %s than allowed is one 422 naming the limit', (name, query, type, loc) => {
    const issues = issuesOf(query);
    expect(issues).toEqual([{ loc, type, msg: expect.stringContaining(`at most ${SEARCH_LIMITS[limitKey(type)]} ${name}`) }]);
  });

  it('a like pattern longer than allowed is a 422 naming the limit (SQLite would fail on one past 50,000 bytes)', () => {
    const pattern = 'a'.repeat(LIKE_PATTERN_MAX_CHARS + 1);
    expect(issuesOf({ filter: { like: { text: pattern } } })).toEqual([
      {
        loc: [...QUERY_LOC, 'filter', 'like', 'text'],
        type: 'value_error.like_pattern_too_long',
        msg: expect.stringContaining(`at most ${LIKE_PATTERN_MAX_CHARS} characters`),
      },
    ]);
    expect(() => issuesOf({ filter: { like: { text: 'a'.repeat(LIKE_PATTERN_MAX_CHARS) } } })).toThrow(/was accepted/);
  });

  it('a filter of thousands of conditions is refused with one issue', () => {
    const issues = issuesOf({ filter: { not: { or: many(5000, (index) => ({ eq: { user: `U${index}` } })) } } });
    expect(issues.map((issue) => issue.type)).toEqual(['value_error.too_many_conditions']);
  });

  it('takes the most of each limit', () => {
    const atLimits = {
      filter: {
        and: [
          { or: many(SEARCH_LIMITS.likePatterns, missing) },
          { fuzzy: { text: many(SEARCH_LIMITS.fuzzyWords, (index) => `word${index}`).join(' ') } },
          { in: { user: many(SEARCH_LIMITS.inValues, (index) => `U${index}`) } },
        ],
      },
      sort: many(SEARCH_LIMITS.sortKeys, () => ({ ts: 'asc' })),
    };
    expect(planSearch(catalog, { query: atLimits }).cost).toEqual({
      conditions: 4 + SEARCH_LIMITS.likePatterns,
      sortKeys: SEARCH_LIMITS.sortKeys,
      likePatterns: SEARCH_LIMITS.likePatterns,
      fuzzyWords: SEARCH_LIMITS.fuzzyWords,
      inValues: SEARCH_LIMITS.inValues,
    });
  });
});

function limitKey(type: string): keyof typeof SEARCH_LIMITS {
  const keys = { too_many_sort_keys: 'sortKeys', too_many_like_patterns: 'likePatterns', too_many_fuzzy_words: 'fuzzyWords', too_many_in_values: 'inValues' };
  return (keys[type.replace('value_error.', '') as keyof typeof keys] ?? 'conditions') as keyof typeof SEARCH_LIMITS;
}

describe.each(BACKENDS)('search time budget on %s', (backend) => {
  let database: TestDatabase;
  const connectorId = randomUUID();
  const open = (searchBudgetMs: number) =>
    database.databaseUrl
      ? createContextStore({ databaseUrl: database.databaseUrl, schema: database.schema!, searchBudgetMs })
      : createContextStore({ dataDir: database.dataDir, file: join(database.dataDir, 'context.db'), searchBudgetMs });

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    const store = await open(60_000);
    await store.prepare(catalog);
    const records = Array.from({ length: MESSAGES }, (_, index) => ({
      channel_id: `C${index % 7}`,
      ts: `1700000000.${String(index).padStart(6, '0')}`,
      type: 'message',
      user: `U${index % 50}`,
      text: `message ${index} about the weather and the ${index % 3 ? 'sea' : 'hills'}`,
    }));
    await store.write(connectorId, catalog, records);
    await store.setEntityState(connectorId, 'channel_messages', 'ready', new Date());
    await store.close();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('answers the most expensive allowed search within a sane budget', async () => {
    const store = await open(60_000);
    try {
      const page = await store.search(connectorId, catalog, planSearch(catalog, { query: WORST_ALLOWED }));
      expect(page.hits).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a search past its budget is a 422 query_too_expensive naming what made it costly; the store serves the next one', async () => {
    const store = await open(1);
    try {
      const failure = await store.search(connectorId, catalog, planSearch(catalog, { query: WORST_ALLOWED })).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(QueryTooExpensiveError);
      const error = failure as PlugboardError;
      expect(error.status).toBe(422);
      expect(error.toJSON()).toEqual({
        detail: [{ loc: QUERY_LOC, type: 'value_error.query_too_expensive', msg: expect.stringContaining('time budget of 1 ms') }],
        error_code: 'query_too_expensive',
      });
      expect(error.message).toContain(`${WORST_ALLOWED.sort.length} sort keys, ${SEARCH_LIMITS.likePatterns} like patterns`);
      // Stopped, not wedged: the next search gets a thread (or a connection) and its own budget, which
      // it may meet or not (with the pages now cached, 1 ms can be enough); any other answer is a fault.
      const next = await store.search(connectorId, catalog, planSearch(catalog, { query: WORST_ALLOWED })).catch((error_: unknown) => error_);
      if (!(next instanceof QueryTooExpensiveError)) expect(next).toMatchObject({ hits: [] });
    } finally {
      await store.close();
    }
  });
});

describe.runIf(BACKENDS.includes('sqlite'))('SQLite reader threads', () => {
  let database: TestDatabase;
  let file: string;
  /** Counts to `n` in SQL: seconds of work for a large n, in one statement. */
  const counting = (n: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT count(*) AS n FROM c`;
  const cost = { conditions: 0, sortKeys: 0, likePatterns: 0, fuzzyWords: 0, inValues: 0 };

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    file = join(database.dataDir, 'readers.db');
    await (await createContextStore({ dataDir: database.dataDir, file })).close();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('run a slow statement off the event loop: timers fire while it runs', async () => {
    const pool = new SqliteReadPool(file, 1);
    try {
      await pool.all(counting(1), [], new SearchBudget(60_000, cost)); // the thread is up
      let ticks = 0;
      let ticksWhenDone = -1;
      const ticker = setInterval(() => (ticks += 1), 1);
      const rows = await pool.all<{ n: number }>(counting(3_000_000), [], new SearchBudget(60_000, cost)).finally(() => {
        ticksWhenDone = ticks;
        clearInterval(ticker);
      });
      expect(rows).toEqual([{ n: 3_000_000 }]);
      // On the main thread the statement would have held every tick back until it returned.
      expect(ticksWhenDone).toBeGreaterThan(1);
    } finally {
      await pool.close();
    }
  });

  it('abandon a statement past its budget, failing it at once, and answer the next on a fresh thread once the old one is gone', async () => {
    const pool = new SqliteReadPool(file, 1);
    try {
      const runaway = pool.all(counting(5_000_000), [], new SearchBudget(20, cost));
      const next = pool.all(counting(3), [], new SearchBudget(60_000, cost));
      const failure = await runaway.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(QueryTooExpensiveError);
      expect(await next).toEqual([{ n: 3 }]);
    } finally {
      await pool.close();
    }
  });

  it('answer 503 search_busy, never queue without end: past the queue length at once, past the wait deadline once it passes', async () => {
    const pool = new SqliteReadPool(file, 1, { maxWaiting: 1, maxWaitMs: 50 });
    try {
      await pool.all(counting(1), [], new SearchBudget(60_000, cost)); // the thread is up
      const long = pool.all(counting(3_000_000), [], new SearchBudget(60_000, cost));
      const waiting = pool.all(counting(2), [], new SearchBudget(60_000, cost)).catch((error: unknown) => error);
      const beyond = await pool.all(counting(2), [], new SearchBudget(60_000, cost)).catch((error: unknown) => error);
      expect(beyond).toMatchObject({ status: 503, error_code: 'search_busy', retryAfterSeconds: 1 });
      expect(await waiting).toMatchObject({ status: 503, error_code: 'search_busy', detail: expect.stringContaining('within 50 ms') });
      expect(await long).toEqual([{ n: 3_000_000 }]);
      // The pool is whole again.
      expect(await pool.all(counting(3), [], new SearchBudget(60_000, cost))).toEqual([{ n: 3 }]);
    } finally {
      await pool.close();
    }
  });

  it('let statements beyond the pool wait for a thread, each answered', async () => {
    const pool = new SqliteReadPool(file, 2);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => pool.all(counting(index + 1), [], new SearchBudget(60_000, cost))));
      expect(answers).toEqual(Array.from({ length: 6 }, (_, index) => [{ n: index + 1 }]));
    } finally {
      await pool.close();
    }
  });
});
