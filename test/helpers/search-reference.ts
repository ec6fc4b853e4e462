/**
 * A plain in-memory evaluator of context store searches: the semantics the store promises, written
 * straight from the documentation and independent of the store's SQL and of its query planner (it
 * reads the raw filter, not a SearchPlan). Tests run the same query on both and compare.
 */
import { WORD_SCORES } from '../../core/hosted/context-store/compile-search.ts';
import type { FieldCatalog } from '../../core/hosted/context-store/field-catalog.ts';
import { wordsOf, withinOneEdit } from '../../core/hosted/context-store/words.ts';

export type Document = Record<string, unknown>;
/** `[{<field>: 'asc' | 'desc'}, ...]`, one field per entry. */
export type SortSpec = { [field: string]: 'asc' | 'desc' | undefined }[];

export interface ReferenceQuery {
  filter?: unknown;
  sort?: SortSpec;
}

export interface ReferenceHit {
  id: string;
  score: number;
  data: Document;
}

/** The documents the store keeps of `records` (records without an id are skipped, as the store does). */
export function documentsOf(catalog: FieldCatalog, records: Record<string, unknown>[]): Document[] {
  const byId = new Map<string, Document>();
  for (const record of records) {
    const id = catalog.idOf(record);
    // JSON round trip: the store hands back parsed JSON, without undefined members.
    if (id !== undefined) byId.set(id, JSON.parse(JSON.stringify(catalog.documentOf(record, id))) as Document);
  }
  return [...byId.values()];
}

/** Every hit of a search, in order, with its data projected to `fields` when given. */
export function referenceSearch(documents: Document[], query: ReferenceQuery, fields?: (string | string[])[]): ReferenceHit[] {
  const hits: { document: Document; score: number }[] = [];
  for (const document of documents) {
    const result = query.filter === undefined ? MATCH : evaluate(query.filter, document);
    if (result.match) hits.push({ document, score: roundScore(result.score) });
  }
  const sort = (query.sort ?? []).map((entry) => {
    const [name, direction] = Object.entries(entry)[0]!;
    return { path: parsePath(name), descending: direction === 'desc' };
  });
  hits.sort((a, b) => {
    for (const { path, descending } of sort) {
      const order = compareSortValues(valuesAt(a.document, path)[0], valuesAt(b.document, path)[0], descending);
      if (order !== 0) return order;
    }
    if (a.score !== b.score) return b.score - a.score;
    return compareBytes(String(a.document.id), String(b.document.id));
  });
  return hits.map(({ document, score }) => ({ id: String(document.id), score, data: fields ? project(document, fields) : document }));
}

export function roundScore(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}

/** Whether a document matches, and its relevance when it does (1 when no text operator decided it). */
interface Result {
  match: boolean;
  score: number;
}

const MATCH: Result = { match: true, score: 1 };
const MISS: Result = { match: false, score: 0 };

type Path = { key: string; each: boolean }[];

function parsePath(name: string | string[]): Path {
  const parts = Array.isArray(name) ? name : name.split('.');
  return parts.map((part) => (part.endsWith('[]') ? { key: part.slice(0, -2), each: true } : { key: part, each: false }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The values a path reaches: one (possibly undefined) without `[]`; with `[]`, one per element of
 * each array on the way (none when the value there is not an array).
 */
function valuesAt(root: unknown, path: Path): unknown[] {
  let current: unknown[] = [root];
  for (const { key, each } of path) {
    const next: unknown[] = [];
    for (const value of current) {
      const child = isRecord(value) ? value[key] : undefined;
      if (!each) next.push(child);
      else if (Array.isArray(child)) next.push(...child);
    }
    current = next;
  }
  return current;
}

/** The AND of several results: matches when all do; the score is the product. */
function all(results: Result[]): Result {
  let score = 1;
  for (const result of results) {
    if (!result.match) return MISS;
    score *= result.score;
  }
  return { match: true, score };
}

function evaluate(filter: unknown, document: unknown): Result {
  if (!isRecord(filter)) throw new Error(`reference: not a filter: ${JSON.stringify(filter)}`);
  return all(Object.entries(filter).map(([op, operand]) => operator(op, operand, document)));
}

function operator(op: string, operand: unknown, document: unknown): Result {
  switch (op) {
    case 'and':
      return all((operand as unknown[]).map((part) => evaluate(part, document)));
    case 'or': {
      const matched = (operand as unknown[]).map((part) => evaluate(part, document)).filter((result) => result.match);
      return matched.length === 0 ? MISS : { match: true, score: Math.max(...matched.map((result) => result.score)) };
    }
    case 'not':
      return evaluate(operand, document).match ? MISS : MATCH;
    case 'neq':
      return operator('eq', operand, document).match ? MISS : MATCH;
  }
  if (!isRecord(operand)) throw new Error(`reference: ${op} takes an object`);
  return all(Object.entries(operand).map(([name, given]) => leaf(op, parsePath(name), given, document)));
}

function leaf(op: string, path: Path, given: unknown, document: unknown): Result {
  const values = valuesAt(document, path);
  const some = (test: (value: unknown) => boolean): Result => (values.some(test) ? MATCH : MISS);
  switch (op) {
    case 'eq':
      return some((value) => compare(value, given) === 0);
    case 'gt':
      return some((value) => (compare(value, given) ?? 0) > 0);
    case 'gte':
      return some((value) => (compare(value, given) ?? -1) >= 0);
    case 'lt':
      return some((value) => (compare(value, given) ?? 0) < 0);
    case 'lte':
      return some((value) => (compare(value, given) ?? 1) <= 0);
    case 'in':
      return some((value) => (given as unknown[]).some((option) => compare(value, option) === 0));
    case 'like': {
      const pattern = likePattern(given as string);
      return some((value) => typeof value === 'string' && pattern.test(asciiLower(value)));
    }
    case 'contains':
      return some((value) => Array.isArray(value) && value.some((element) => compare(element, given) === 0));
    case 'any':
      return some((value) => Array.isArray(value) && value.some((element) => isRecord(element) && evaluate(given, element).match));
    case 'keyword':
      return best(values, (value) => keyword(value, given as string));
    case 'fuzzy':
      return best(values, (value) => fuzzy(value, given as string));
    default:
      throw new Error(`reference: unknown operator ${op}`);
  }
}

/** Text operators: the best-scoring value (text fields are plain paths, so there is one). */
function best(values: unknown[], score: (value: unknown) => Result): Result {
  const matched = values.map(score).filter((result) => result.match);
  return matched.length === 0 ? MISS : { match: true, score: Math.max(...matched.map((result) => result.score)) };
}

/**
 * `value` against `given`: negative, 0 or positive, or undefined when they cannot be compared
 * (absent, null, or another JSON type). Strings compare by the byte order of their UTF-8.
 */
function compare(value: unknown, given: unknown): number | undefined {
  if (value === null || value === undefined || typeof value !== typeof given) return undefined;
  if (typeof value === 'string') return compareBytes(value, given as string);
  if (typeof value === 'number') return value - (given as number);
  if (typeof value === 'boolean') return Number(value) - Number(given);
  return undefined;
}

export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** like: case-insensitive (ASCII), `%` any run, `_` one character; without either, a substring. */
function likePattern(given: string): RegExp {
  const pattern = /[%_]/.test(given) ? given : `%${given}%`;
  const source = [...asciiLower(pattern)]
    .map((char) => (char === '%' ? '[\\s\\S]*' : char === '_' ? '[\\s\\S]' : char.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 'u');
}

function distinctWords(text: string): string[] {
  return [...new Set(wordsOf(text))];
}

/** keyword: some of the query's words are words of the field; the score is the share present. */
function keyword(value: unknown, given: string): Result {
  if (typeof value !== 'string') return MISS;
  const words = new Set(wordsOf(value));
  const query = distinctWords(given);
  const present = query.filter((word) => words.has(word)).length;
  return present === 0 ? MISS : { match: true, score: present / query.length };
}

/** fuzzy: every query word is a word of the field, a prefix of one, or one edit from one; the score is the mean of each word's best class. */
function fuzzy(value: unknown, given: string): Result {
  if (typeof value !== 'string') return MISS;
  const words = wordsOf(value);
  const query = distinctWords(given);
  let total = 0;
  for (const word of query) {
    let score = 0;
    for (const candidate of words) {
      if (candidate === word) score = Math.max(score, WORD_SCORES.exact);
      else if (candidate.startsWith(word)) score = Math.max(score, WORD_SCORES.prefix);
      else if (withinOneEdit(word, candidate)) score = Math.max(score, WORD_SCORES.edit);
    }
    if (score === 0) return MISS;
    total += score;
  }
  return { match: true, score: total / query.length };
}

/** Sort order of two values of one field: absent and null last in both directions. */
function compareSortValues(a: unknown, b: unknown, descending: boolean): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  const order = compare(a, b);
  if (order === undefined) throw new Error(`reference: cannot sort ${JSON.stringify(a)} against ${JSON.stringify(b)}`);
  return descending ? -order : order;
}

/** The document narrowed to the given paths (dot paths or lists of keys); paths that reach nothing are left out. */
function project(document: Document, fields: (string | string[])[]): Document {
  const out: Document = {};
  for (const field of fields) {
    const keys = Array.isArray(field) ? field : field.split('.');
    let value: unknown = document;
    for (const key of keys) value = isRecord(value) ? value[key] : undefined;
    if (value === undefined) continue;
    let target = out;
    for (const key of keys.slice(0, -1)) {
      if (!isRecord(target[key])) target[key] = {};
      target = target[key] as Document;
    }
    target[keys.at(-1)!] = structuredClone(value);
  }
  return out;
}
