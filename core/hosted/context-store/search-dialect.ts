import type { FieldKind } from './field-catalog.ts';
import type { CompareOp, Scalar } from './search-query.ts';

export type Bind = (value: string | number) => string;

/** Stands for the record's id column where a filter names the document's `id` (always equal to it), so the id index serves it. */
export const ID_ROOT = '<record id>';

/**
 * How one database says the few things a search needs: read a value at a path of a JSON document,
 * compare it, walk an array's elements, and ask the text indexes. `root` is the SQL expression of
 * the document (or of an array element); `keys` the path below it.
 */
export interface SearchDialect {
  readonly name: 'sqlite' | 'postgres';
  /** The value at `keys`, comparable with `bind`'s output and typed for sorting; NULL when absent. */
  value(root: string, keys: string[], kind: FieldKind): string;
  /** An ORDER BY term: absent and null values last in both directions. */
  sortKey(root: string, keys: string[], kind: FieldKind, descending: boolean): string;
  /** A condition that holds only when the value at `keys` has `kind` (so no comparison crosses types). */
  hasKind(root: string, keys: string[], kind: FieldKind): string;
  /** `value op given`, never true for an absent, null or differently typed value. `bind` adds a parameter and returns its placeholder. */
  compare(root: string, keys: string[], kind: FieldKind, op: CompareOp, given: Scalar, bind: Bind): string;
  isIn(root: string, keys: string[], kind: FieldKind, given: Scalar[], bind: Bind): string;
  like(root: string, keys: string[], pattern: string, bind: Bind): string;
  /** FROM-clause item over the elements of the array at `keys`, each as `<alias>.value`. */
  elements(root: string, keys: string[], alias: string): string;
  /** Record ids (`rid`) whose text slot `slot` matches a word query. */
  wordMatch(slot: number, placeholder: string): string;
  /** Whether record `r`'s text slot matches a word query (the candidates found from the word index). */
  wordCondition(slot: number, placeholder: string): string;
  /** Whether record `r`'s text slot matches a word query, asked row by row (for a walk that stops early). */
  wordProbe(slot: number, placeholder: string): string;

  /** Word query syntax: a word of slot `slot` exactly, as prefix; any of, all of. */
  word(word: string, slot: number): string;
  prefix(word: string, slot: number): string;
  anyOf(parts: string[]): string;
  allOf(parts: string[]): string;
  /**
   * Record ids whose substring slot may match the `like` pattern (a prefilter), or undefined when
   * there is none: the index cannot help, or (PostgreSQL) it serves the `like` condition itself.
   */
  trigramMatch(slot: number, pattern: string, bind: Bind): string | undefined;
}

const quoteJsonKey = (key: string) => `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const sqliteDialect: SearchDialect = {
  name: 'sqlite',
  value(root, keys) {
    if (root === ID_ROOT) return 'r.id';
    return keys.length === 0 ? root : `json_extract(${root}, ${sqlString(`$.${keys.map(quoteJsonKey).join('.')}`)})`;
  },
  sortKey(root, keys, kind, descending) {
    // SQLite sorts NULL first: a plain DESC already puts it last (and can walk an index).
    return `${this.value(root, keys, kind)} ${descending ? 'DESC' : 'ASC NULLS LAST'}`;
  },
  hasKind(root, keys, kind) {
    if (root === ID_ROOT) return 'TRUE';
    const types = { string: "'text'", number: "'integer', 'real'", boolean: "'integer'", object: "'text'", array: "'text'" }[kind];
    return `typeof(${this.value(root, keys, kind)}) IN (${types})`;
  },
  compare(root, keys, kind, op, given, bind) {
    // json_extract gives booleans as 1 and 0; values of another type never equal the bound one.
    const sql = `${this.value(root, keys, kind)} ${SQL_OPS[op]} ${bind(sqliteScalar(given))}`;
    return op === 'eq' ? sql : `(${this.hasKind(root, keys, kind)} AND ${sql})`;
  },
  isIn(root, keys, kind, given, bind) {
    return `${this.value(root, keys, kind)} IN (${given.map((value) => bind(sqliteScalar(value))).join(', ')})`;
  },
  like(root, keys, pattern, bind) {
    return `${this.value(root, keys, 'string')} LIKE ${bind(pattern)}`;
  },
  elements(root, keys, alias) {
    // json_each of a JSON null yields one NULL row: only arrays have elements.
    const array = keys.length === 0 ? root : `json_extract(${root}, ${sqlString(`$.${keys.map(quoteJsonKey).join('.')}`)})`;
    return `json_each(CASE WHEN json_type(${array}) = 'array' THEN ${array} ELSE '[]' END) AS ${alias}`;
  },
  wordMatch(slot, placeholder) {
    return `SELECT rowid >> 6 FROM context_words WHERE context_words MATCH ${placeholder} AND (rowid & 63) = ${slot}`;
  },
  wordCondition(slot, placeholder) {
    return `r.rid IN (${this.wordMatch(slot, placeholder)})`;
  },
  wordProbe(slot, placeholder) {
    // FTS5 seeks the one row: far cheaper than collecting a common word's every match.
    return `EXISTS (SELECT 1 FROM context_words WHERE context_words MATCH ${placeholder} AND rowid = r.rid * 64 + ${slot})`;
  },

  word: (word) => `"${word}"`,
  prefix: (word) => `"${word}"*`,
  anyOf: (parts) => `(${parts.join(' OR ')})`,
  allOf: (parts) => parts.join(' AND '),
  trigramMatch(slot, pattern, bind) {
    // Each run of three or more literal characters must occur; LIKE then checks the whole pattern.
    const runs = pattern.split(/[%_]+/).filter((run) => [...run].length >= 3);
    if (runs.length === 0) return undefined;
    const query = runs.map((run) => `"${run.replace(/"/g, '""')}"`).join(' AND ');
    return `SELECT rowid >> 6 FROM context_trigrams WHERE context_trigrams MATCH ${bind(query)} AND (rowid & 63) = ${slot}`;
  },
};

const sqliteScalar = (value: Scalar): string | number => (typeof value === 'boolean' ? Number(value) : value);

const SQL_OPS: Record<CompareOp, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
const JSON_KIND: Record<FieldKind, string> = { string: 'string', number: 'number', boolean: 'boolean', object: 'object', array: 'array' };

/** PostgreSQL: jsonb paths; strings compare byte-wise (COLLATE "C"), as SQLite does. */
export const postgresDialect: SearchDialect = {
  name: 'postgres',
  value(root, keys, kind) {
    if (root === ID_ROOT) return 'r.id COLLATE "C"';
    if (kind === 'string') return `(${jsonAt(root, keys, '#>>')} COLLATE "C")`;
    return `NULLIF(${jsonAt(root, keys, '#>')}, 'null'::jsonb)`;
  },
  sortKey(root, keys, kind, descending) {
    return `${this.value(root, keys, kind)} ${descending ? 'DESC' : 'ASC'} NULLS LAST`;
  },
  hasKind(root, keys, kind) {
    if (root === ID_ROOT) return 'TRUE';
    return `jsonb_typeof(${jsonAt(root, keys, '#>')}) = '${JSON_KIND[kind]}'`;
  },
  compare(root, keys, kind, op, given, bind) {
    // The same expressions as the expression indexes; strings compare as text, other values as jsonb (types never cross).
    if (root === ID_ROOT) return `r.id ${SQL_OPS[op]} (${bind(String(given))} COLLATE "C")`;
    const operand = kind === 'string' ? `${bind(String(given))} COLLATE "C"` : `${bind(JSON.stringify(given))}::jsonb`;
    const sql = `${this.value(root, keys, kind)} ${SQL_OPS[op]} ${operand}`;
    return op === 'eq' && kind !== 'string' ? sql : `(${this.hasKind(root, keys, kind)} AND ${sql})`;
  },
  isIn(root, keys, kind, given, bind) {
    // One array parameter, whatever the number of values: the planner reads it as a constant, so the
    // field's index and statistics apply as they do to `=` (strings compare as text, other values as jsonb).
    if (root === ID_ROOT) return `r.id = ANY (${bind(arrayLiteral(given.map(String)))}::text[])`;
    if (kind === 'string') return `${this.value(root, keys, kind)} = ANY (${bind(arrayLiteral(given.map(String)))}::text[])`;
    return `${this.value(root, keys, kind)} = ANY (${bind(arrayLiteral(given.map((value) => JSON.stringify(value))))}::jsonb[])`;
  },
  like(root, keys, pattern, bind) {
    if (root === ID_ROOT) return `r.id ILIKE ${bind(pattern)} ESCAPE ''`;
    return `(${this.hasKind(root, keys, 'string')} AND ${jsonAt(root, keys, '#>>')} ILIKE ${bind(pattern)} ESCAPE '')`;
  },
  elements(root, keys, alias) {
    const array = jsonAt(root, keys, '#>');
    return `jsonb_array_elements(CASE WHEN jsonb_typeof(${array}) = 'array' THEN ${array} ELSE '[]'::jsonb END) AS ${alias}(value)`;
  },
  // A record's words are one tsvector in its row, each word prefixed with its slot (`3:smith`, see
  // record-writers.ts): the query's words carry the slot, so they match that field's words only.
  wordMatch(_slot, placeholder) {
    return `SELECT rid FROM context_records WHERE words @@ ${placeholder}::tsquery`;
  },
  wordCondition(_slot, placeholder) {
    // The entity's GIN index on `words` finds the candidates; checking one row is a lookup in its own tsvector.
    return `r.words @@ ${placeholder}::tsquery`;
  },
  wordProbe(slot, placeholder) {
    return this.wordCondition(slot, placeholder);
  },

  word: (word, slot) => `'${slotWord(slot, word)}'`,
  prefix: (word, slot) => `'${slotWord(slot, word)}':*`,
  anyOf: (parts) => `(${parts.join(' | ')})`,
  allOf: (parts) => parts.join(' & '),
  // A substring field has a trigram index on its own expression (postgres-entity-objects.ts): `like` uses it as it is.
  trigramMatch: () => undefined,
};

/** A word as PostgreSQL stores it in a record's `words`: prefixed with its text slot. */
export function slotWord(slot: number, word: string): string {
  return `${slot}:${word}`;
}

/** A PostgreSQL array literal of text elements (each quoted, so none is read as NULL or split). */
function arrayLiteral(items: string[]): string {
  return `{${items.map((item) => `"${item.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** The JSON value at `keys` below `root`: `#>` as jsonb, `#>>` as text. */
export function jsonAt(root: string, keys: string[], operator: '#>' | '#>>'): string {
  if (keys.length === 0) return operator === '#>' ? root : `(${root} #>> '{}')`;
  const path = `{${keys.map((key) => `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  return `(${root} ${operator} ${sqlString(path)})`;
}
