import type { ResolvedField } from './field-catalog.ts';
import { type Bind, ID_ROOT, type SearchDialect } from './search-dialect.ts';
import type { Filter, SearchPlan } from './search-query.ts';
import { oneEditVariants } from './words.ts';

/** Score of a word matched whole, by prefix, or one edit away: exact ranks above prefix above edit. */
export const WORD_SCORES = { exact: 1, prefix: 2 / 3, edit: 1 / 3 } as const;

/** SQL text with the parameters of its placeholders, in order: fragments compose without losing track. */
interface Sql {
  text: string;
  params: (string | number)[];
}

/**
 * A filter as SQL: the condition and, when it has text operators, the relevance of a matching record.
 * A condition is NULL where a compared value is absent: WHERE and CASE take that as false, and `not`
 * makes it false before negating, so NULL never leaks SQL's three-valued logic (and no COALESCE
 * hides a condition from the indexes).
 */
interface Compiled {
  where: Sql;
  score: Sql | undefined;
}

export interface CompiledSearch {
  sql: string;
  params: (string | number)[];
  /** Whether the page is the first matches in id order (no sort keys, no score): a walk of the id index can stop at its end. */
  byId: boolean;
}

/** The characters indexed words use, per text slot: fuzzy expands a word into its one-edit variants over them. */
export type Alphabets = ReadonlyMap<number, string>;

/** A fragment written by `write`, which binds its values through the `bind` it is given. */
function sql(write: (bind: Bind) => string): Sql {
  const params: (string | number)[] = [];
  const text = write((value) => {
    params.push(value);
    return '?';
  });
  return { text, params };
}

/** Fragments and literal text in order, as one fragment. */
function concat(...parts: (Sql | string)[]): Sql {
  return {
    text: parts.map((part) => (typeof part === 'string' ? part : part.text)).join(''),
    params: parts.flatMap((part) => (typeof part === 'string' ? [] : part.params)),
  };
}

function join(parts: Sql[], separator: string): Sql {
  return concat(...parts.flatMap((part, index) => (index === 0 ? [part] : [separator, part])));
}

/**
 * One SELECT for a search page over `context_records r`: the filter, its score, the order (the
 * caller's sort keys, then score descending, then id) and the page, one row more than asked so the
 * caller knows whether a next page exists.
 */
export function compileSearch(
  dialect: SearchDialect,
  plan: SearchPlan,
  /** The connector's key in context_stores. */
  storeKey: number,
  alphabets: Alphabets,
  /** Whether the text index should find the candidates (few of them); default: whenever every hit must meet a text condition. */
  textDriven = narrowedByText(plan.filter),
  /** PostgreSQL: how many records to check in id order before collecting the candidates instead (see likeWalkFirst). */
  walkFirst?: number,
): CompiledSearch {
  const hasText = containsText(plan.filter);
  // A lone text condition met by walking the id index: each record is checked on its own, and every hit scores 1.
  const walking = !textDriven && walkableText(plan.filter) !== undefined;
  const compiled = new FilterCompiler(dialect, alphabets, walking).compile(plan.filter, 'r.data');
  /** The order over rows of `at` (the records, or the page they made): sort keys, score, id. */
  const orderOf = (at: 'r' | 'page') => [
    ...plan.sort.map(({ field, descending }) => dialect.sortKey(`${at}.data`, keysOf(field), field.node.kind, descending)),
    ...(compiled.score && !walking ? [at === 'r' ? 'score DESC' : 'page.score DESC'] : []),
    // With text operators the few matching records are found from the text index: walking the id index in order instead would read most of the entity.
    dialect.name === 'postgres' ? `${at}.id COLLATE "C"` : hasText && textDriven ? '+r.id' : 'r.id',
  ];
  // Rounded in SQL so the order is the one callers see: equal shown scores tie-break by id.
  const score = compiled.score ? concat('round((', compiled.score, dialect.name === 'sqlite' ? '), 6)' : ')::numeric, 6)') : '1';
  const wanted = plan.offset + plan.limit + 1;
  const walksFirst = dialect.name === 'postgres' && walkFirst !== undefined;
  const page = concat(
    `SELECT r.id AS id, ${dialect.name === 'sqlite' ? 'json(r.data)' : 'r.data'} AS data, `,
    score,
    ' AS score\nFROM context_records r\n',
    // A text condition every hit must meet finds the few candidates: the `+` keeps SQLite from scanning the entity by index instead.
    sql((bind) => {
      const scoped = dialect.name === 'sqlite' && textDriven ? '+' : '';
      return `WHERE ${scoped}r.store_key = ${bind(storeKey)} AND ${scoped}r.entity = ${quote(plan.entity)} AND `;
    }),
    compiled.where,
    // Collected only when the walk first did not fill the page.
    walksFirst ? sql((bind) => ` AND (SELECT count(*) FROM walk) < ${bind(wanted)}`) : '',
    `\nORDER BY ${orderOf('r').join(', ')}\n`,
    sql((bind) => `LIMIT ${bind(plan.limit + 1)} OFFSET ${bind(plan.offset)}`),
  );
  const byId = plan.sort.length === 0 && (!compiled.score || walking);
  if (dialect.name === 'sqlite') return { sql: page.text, params: page.params, byId };
  // PostgreSQL computes the select list before sorting: the documents become text only once the page
  // is cut, not for every match sorted (for a `like` of 2,000 candidates, half the statement's time).
  const rows = walksFirst ? walkThenCollect(plan, storeKey, compiled.where, walkFirst!, wanted, page) : page;
  const query = concat('SELECT page.id AS id, page.data::text AS data, page.score AS score\nFROM (', rows, `) page\nORDER BY ${orderOf('page').join(', ')}`);
  return { sql: query.text, params: query.params, byId };
}

/**
 * PostgreSQL, a page of a lone `like` in id order: the first `walkFirst` records in id order are
 * checked (the id index, read in order); if they hold the page, it is theirs (every later match has
 * a greater id), else the candidates are collected from the trigram index (`page`, which runs only
 * then: its condition on the walk is a one-time filter). A common substring fills the page after a
 * few hundred records, where collecting would read each of its thousands of candidates from all
 * over the table; a rare one costs the walk and the few candidates.
 */
function walkThenCollect(plan: SearchPlan, storeKey: number, where: Sql, walkFirst: number, wanted: number, page: Sql): Sql {
  return concat(
    sql(
      (bind) =>
        `WITH walk AS (SELECT r.id AS id, r.data AS data FROM (SELECT rid, id, data FROM context_records WHERE store_key = ${bind(storeKey)} AND entity = ${quote(plan.entity)} ORDER BY id COLLATE "C" LIMIT ${bind(walkFirst)}) r\nWHERE `,
    ),
    where,
    sql((bind) => ` ORDER BY r.id COLLATE "C" LIMIT ${bind(wanted)})\n`),
    sql(
      (bind) =>
        `(SELECT id, data, 1 AS score FROM walk WHERE (SELECT count(*) FROM walk) = ${bind(wanted)} ORDER BY id COLLATE "C" OFFSET ${bind(plan.offset)})`,
    ),
    '\nUNION ALL\n(',
    page,
    ')',
  );
}

/** Whether every hit must meet a text-index condition (a text operator, or `like` on a substring field, in the top-level AND). */
export function narrowedByText(filter: Filter): boolean {
  if (filter.kind === 'keyword' || filter.kind === 'fuzzy') return true;
  if (filter.kind === 'like') return filter.field.trigrams && filter.pattern.split(/[%_]+/).some((run) => [...run].length >= 3);
  return filter.kind === 'and' && filter.filters.some(narrowedByText);
}

/** A text-index condition alone: its candidates in the index, and what checking one record costs when walking instead. */
export interface WalkableText {
  index: 'words' | 'trigrams';
  slot: number;
  /** A single word, or a `like` pattern. */
  value: string;
}

/**
 * The condition of a filter that is one single-word keyword or one `like` on a substring field:
 * every hit scores 1, so hits come in id order and a walk of the id index may stop at the page's end
 * (see SqlContextStore.textDriven).
 */
export function walkableText(filter: Filter): WalkableText | undefined {
  if (filter.kind === 'keyword' && filter.words.length === 1) return { index: 'words', slot: filter.field.textSlot!, value: filter.words[0]! };
  if (filter.kind === 'like' && narrowedByText(filter)) return { index: 'trigrams', slot: filter.field.textSlot!, value: filter.pattern };
  return undefined;
}

function containsText(filter: Filter): boolean {
  switch (filter.kind) {
    case 'keyword':
    case 'fuzzy':
      return true;
    case 'not':
      return containsText(filter.filter);
    case 'and':
    case 'or':
      return filter.filters.some(containsText);
    default:
      return false;
  }
}

/** The entity is inlined (a declared name) so the partial indexes, which name it, apply. */
function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Keys of a path with no `[]` step. */
function keysOf(field: ResolvedField): string[] {
  return field.steps.flatMap((step) => ('key' in step ? [step.key] : []));
}

class FilterCompiler {
  private aliases = 0;

  constructor(
    private readonly dialect: SearchDialect,
    private readonly alphabets: Alphabets,
    /** Whether the records are walked in order (not found from the text index): text conditions probe row by row. */
    private readonly walking: boolean,
  ) {}

  compile(filter: Filter, root: string): Compiled {
    const { dialect } = this;
    switch (filter.kind) {
      case 'all':
        return plain(sql(() => '1 = 1'));
      case 'compare':
        return this.onPath(root, filter.field, (at, keys, bind) => dialect.compare(at, keys, filter.field.node.kind, filter.op, filter.value, bind));
      case 'in':
        return this.onPath(root, filter.field, (at, keys, bind) => dialect.isIn(at, keys, filter.field.node.kind, filter.values, bind));
      case 'contains': {
        const alias = `e${++this.aliases}`;
        const element = sql((bind) => dialect.compare(`${alias}.value`, [], filter.field.node.element!.kind, 'eq', filter.value, bind));
        return plain(concat(`EXISTS (SELECT 1 FROM ${dialect.elements(root, keysOf(filter.field), alias)} WHERE `, element, ')'));
      }
      case 'any': {
        const alias = `e${++this.aliases}`;
        const inner = this.compile(filter.filter, `${alias}.value`);
        return plain(concat(`EXISTS (SELECT 1 FROM ${dialect.elements(root, keysOf(filter.field), alias)} WHERE `, inner.where, ')'));
      }
      case 'like':
        return this.like(root, filter.field, filter.pattern);
      case 'keyword':
        return this.keyword(filter.field, filter.words);
      case 'fuzzy':
        return this.fuzzy(filter.field, filter.words);
      case 'not': {
        const inner = this.compile(filter.filter, root).where;
        // The same truth table; PostgreSQL estimates `IS NOT TRUE` as the complement of the condition, a COALESCE as a coin toss.
        return plain(dialect.name === 'postgres' ? concat('((', inner, ') IS NOT TRUE)') : concat('NOT COALESCE((', inner, '), FALSE)'));
      }
      case 'and': {
        if (filter.filters.length === 0) return plain(sql(() => '1 = 1'));
        const parts = filter.filters.map((part) => this.compile(part, root));
        const scores = parts.flatMap((part) => (part.score ? [concat('(', part.score, ')')] : []));
        return {
          where: concat(
            '(',
            join(
              parts.map((part) => part.where),
              ' AND ',
            ),
            ')',
          ),
          score: scores.length > 0 ? join(scores, ' * ') : undefined,
        };
      }
      case 'or': {
        if (filter.filters.length === 0) return plain(sql(() => '1 = 0'));
        const parts = filter.filters.map((part) => this.compile(part, root));
        const where = concat(
          '(',
          join(
            parts.map((part) => part.where),
            ' OR ',
          ),
          ')',
        );
        if (!parts.some((part) => part.score)) return plain(where);
        // The best branch that matched; a branch without text operators matched exactly.
        const branches = parts.map((part) => concat('CASE WHEN ', part.where, ' THEN ', part.score ?? '1', ' ELSE 0 END'));
        // SQLite's max() of one argument is the aggregate: a single branch needs none.
        if (branches.length === 1) return { where, score: branches[0] };
        return { where, score: concat(dialect.name === 'sqlite' ? 'max(' : 'GREATEST(', join(branches, ', '), ')') };
      }
    }
  }

  /** A leaf on a path, through every `[]` step: "some element" for each. NULL where the value is absent. */
  private onPath(root: string, field: ResolvedField, leaf: (root: string, keys: string[], bind: Bind) => string): Compiled {
    const build = (at: string, steps: ResolvedField['steps']): Sql => {
      const each = steps.findIndex((step) => 'each' in step);
      const keys = (each < 0 ? steps : steps.slice(0, each)).map((step) => ('key' in step ? step.key : ''));
      if (each < 0) return sql((bind) => leaf(at === 'r.data' && keys.length === 1 && keys[0] === 'id' ? ID_ROOT : at, keys, bind));
      const alias = `e${++this.aliases}`;
      return concat(`EXISTS (SELECT 1 FROM ${this.dialect.elements(at, keys, alias)} WHERE `, build(`${alias}.value`, steps.slice(each + 1)), ')');
    };
    return plain(build(root, field.steps));
  }

  private like(root: string, field: ResolvedField, pattern: string): Compiled {
    const exact = this.onPath(root, field, (at, keys, bind) => this.dialect.like(at, keys, pattern, bind));
    if (!field.trigrams || field.textSlot === undefined || this.walking) return exact;
    const slot = field.textSlot;
    let usable = true;
    const candidates = sql((bind) => {
      const text = this.dialect.trigramMatch(slot, pattern, bind);
      usable = text !== undefined;
      return text ?? '';
    });
    return plain(usable ? concat('(r.rid IN (', candidates, ') AND ', exact.where, ')') : exact.where);
  }

  private wordCondition(slot: number, query: string): Sql {
    return sql((bind) => this.dialect.wordCondition(slot, bind(query)));
  }

  private keyword(field: ResolvedField, words: string[]): Compiled {
    const { dialect } = this;
    const slot = field.textSlot!;
    const query = dialect.anyOf(words.map((word) => dialect.word(word, slot)));
    const where = this.walking ? sql((bind) => dialect.wordProbe(slot, bind(query))) : this.wordCondition(slot, query);
    if (words.length === 1) return { where, score: sql(() => String(WORD_SCORES.exact)) };
    // The share of the value's words the field holds.
    const present = words.map((word) => concat('CASE WHEN ', this.wordCondition(slot, dialect.word(word, slot)), ' THEN 1 ELSE 0 END'));
    return { where, score: concat('(', join(present, ' + '), `) * 1.0 / ${words.length}`) };
  }

  private fuzzy(field: ResolvedField, words: string[]): Compiled {
    const { dialect } = this;
    const slot = field.textSlot!;
    const alphabet = [...(this.alphabets.get(slot) ?? '')];
    const perWord = words.map((word) =>
      dialect.anyOf([dialect.prefix(word, slot), ...oneEditVariants(word, alphabet).map((variant) => dialect.word(variant, slot))]),
    );
    const where = this.wordCondition(slot, dialect.allOf(perWord));
    // Each word's best match: whole, by prefix, else one edit away; the record's score is their mean.
    const classes = words.map((word) =>
      concat(
        'CASE WHEN ',
        this.wordCondition(slot, dialect.word(word, slot)),
        ` THEN ${WORD_SCORES.exact} WHEN `,
        this.wordCondition(slot, dialect.prefix(word, slot)),
        ` THEN ${WORD_SCORES.prefix} ELSE ${WORD_SCORES.edit} END`,
      ),
    );
    return { where, score: concat('(', join(classes, ' + '), `) / ${words.length}.0`) };
  }
}

function plain(where: Sql): Compiled {
  return { where, score: undefined };
}
