import { createHash } from 'node:crypto';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { isObject } from '../../plugins/value-shapes.ts';
import type { FieldCatalog, FieldKind, FieldNode, ResolvedField } from './field-catalog.ts';
import { costOf, LIKE_PATTERN_MAX_CHARS, limitIssues, limitMessage, limitType, SEARCH_LIMITS, type SearchCost } from './search-cost.ts';
import { queryWords } from './words.ts';

export type Scalar = string | number | boolean;
export type CompareOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

/** A filter checked against the entity's fields: what the backends compile to SQL and tests evaluate in memory. */
export type Filter =
  | { kind: 'all' }
  | { kind: 'compare'; op: CompareOp; field: ResolvedField; value: Scalar }
  | { kind: 'in'; field: ResolvedField; values: Scalar[] }
  | { kind: 'like'; field: ResolvedField; pattern: string }
  | { kind: 'keyword'; field: ResolvedField; words: string[] }
  | { kind: 'fuzzy'; field: ResolvedField; words: string[] }
  | { kind: 'contains'; field: ResolvedField; value: Scalar }
  | { kind: 'any'; field: ResolvedField; filter: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'and'; filters: Filter[] }
  | { kind: 'or'; filters: Filter[] };

export interface SortKey {
  field: ResolvedField;
  descending: boolean;
}

/** A search request made safe to run: filter, order, page and projection. */
export interface SearchPlan {
  entity: string;
  filter: Filter;
  sort: SortKey[];
  limit: number;
  offset: number;
  /** Paths kept in each hit's data; undefined keeps every field. */
  fields: string[][] | undefined;
  /** Ties a cursor to its query. */
  fingerprint: string;
  /** What makes it costly: within SEARCH_LIMITS, and named when it runs past its time budget. */
  cost: SearchCost;
}

export const SEARCH_LIMIT_MAX = 1000;
const MAX_TEXT_WORDS = 16;
const MAX_WORD_LENGTH = 64;

const COMPARE_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
const OPERATORS = [...COMPARE_OPS, 'in', 'like', 'keyword', 'fuzzy', 'contains', 'any', 'not', 'and', 'or'];

type Loc = (string | number)[];
const QUERY_LOC: Loc = ['body', 'params', 'query'];

/** Turns validated search params (the schema's shape) into a plan, or throws a 422 whose `loc` points into the query. */
export function planSearch(catalog: FieldCatalog, params: Record<string, unknown>): SearchPlan {
  const issues: ValidationIssue[] = [];
  const query = isObject(params.query) ? params.query : {};
  const parser = new FilterParser(catalog, issues);
  const filter = query.filter === undefined ? ({ kind: 'all' } as const) : parser.parse(query.filter, [...QUERY_LOC, 'filter'], catalog.root);
  const sort = parseSort(catalog, query.sort, issues);
  const fields = parseFields(catalog, params.fields, issues);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([catalog.entity, query.filter ?? null, query.sort ?? null]))
    .digest('base64url')
    .slice(0, 16);
  const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, fingerprint, issues);
  const cost = costOf(filter, sort.length, parser.conditions);
  issues.push(...limitIssues(cost, QUERY_LOC));
  if (issues.length > 0) throw new ValidationError(issues);
  return { entity: catalog.entity, filter, sort, limit: Number(params.limit ?? SEARCH_LIMIT_MAX), offset, fields, fingerprint, cost };
}

export function encodeCursor(fingerprint: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: fingerprint, o: offset })).toString('base64url');
}

function decodeCursor(cursor: unknown, fingerprint: string, issues: ValidationIssue[]): number {
  const loc = ['body', 'params', 'cursor'];
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (!isObject(decoded) || typeof decoded.q !== 'string' || !Number.isSafeInteger(decoded.o) || (decoded.o as number) < 0) {
    issues.push({ loc, msg: 'not a cursor this search returned', type: 'value_error.cursor' });
    return 0;
  }
  if (decoded.q !== fingerprint) {
    issues.push({ loc, msg: 'the cursor belongs to a different query (filter, sort or entity); start again without it', type: 'value_error.cursor_mismatch' });
    return 0;
  }
  return decoded.o as number;
}

class FilterParser {
  /** Each operator on a field, each and/or/not, each empty filter: what SEARCH_LIMITS.conditions bounds. */
  conditions = 0;

  constructor(
    private readonly catalog: FieldCatalog,
    private readonly issues: ValidationIssue[],
  ) {}

  private fail(loc: Loc, msg: string, type: string): Filter {
    this.issues.push({ loc, msg, type });
    return { kind: 'all' };
  }

  parse(value: unknown, loc: Loc, scope: FieldNode): Filter {
    if (!isObject(value)) return this.fail(loc, 'a filter is an object {<operator>: ...}', 'type_error.dict');
    if (Object.keys(value).length === 0 && this.overLimit(loc)) return { kind: 'all' };
    const parts = Object.entries(value).map(([op, operand]) => this.operator(op, operand, [...loc, op], scope));
    // `{}` names no condition: it matches everything, as no filter does.
    return parts.length === 1 ? parts[0]! : { kind: 'and', filters: parts };
  }

  /**
   * Counts one condition; past the limit, the first one is the 422 and the rest are not parsed (a
   * filter of thousands of conditions costs no more than one of 65 to refuse).
   */
  private overLimit(loc: Loc): boolean {
    this.conditions += 1;
    if (this.conditions === SEARCH_LIMITS.conditions + 1) this.fail(loc, limitMessage('conditions'), limitType('conditions'));
    return this.conditions > SEARCH_LIMITS.conditions;
  }

  private operator(op: string, operand: unknown, loc: Loc, scope: FieldNode): Filter {
    if ((op === 'not' || op === 'and' || op === 'or') && this.overLimit(loc)) return { kind: 'all' };
    if (op === 'not') return { kind: 'not', filter: this.parse(operand, loc, scope) };
    if (op === 'and' || op === 'or') {
      if (!Array.isArray(operand)) return this.fail(loc, `${op} takes an array of filters`, 'type_error.list');
      return { kind: op, filters: operand.map((item, index) => this.parse(item, [...loc, index], scope)) };
    }
    if (!OPERATORS.includes(op)) return this.fail(loc, `unknown operator "${op}"; operators: ${OPERATORS.join(', ')}`, 'value_error.unknown_operator');
    if (!isObject(operand)) return this.fail(loc, `${op} takes an object {<field>: <value>}`, 'type_error.dict');
    const leaves = Object.entries(operand).map(([name, given]) => this.leaf(op, name, given, [...loc, name], scope));
    if (leaves.length === 0) return this.fail(loc, `${op} names no field`, 'value_error.missing');
    return leaves.length === 1 ? leaves[0]! : { kind: 'and', filters: leaves };
  }

  private leaf(op: string, name: string, given: unknown, loc: Loc, scope: FieldNode): Filter {
    if (this.overLimit(loc)) return { kind: 'all' };
    const field = this.catalog.resolve(name, scope);
    if (!field) {
      const known = this.catalog.fieldNames(scope);
      return this.fail(loc, `unknown field "${name}"; fields: ${known.join(', ')}`, 'value_error.unknown_field');
    }
    const { kind } = field.node;
    switch (op) {
      case 'in': {
        if (!Array.isArray(given)) return this.fail(loc, 'in takes an array of values', 'type_error.list');
        if (given.length === 0 || given.length > 1000) return this.fail(loc, 'in takes 1 to 1000 values', 'value_error.list');
        const bad = given.findIndex((item) => !fitsKind(item, kind));
        if (bad >= 0) return this.typeError([...loc, bad], kind);
        return { kind: 'in', field, values: given as Scalar[] };
      }
      case 'like':
        if (kind !== 'string') return this.fail(loc, `like needs a string field; "${name}" holds ${article(kind)}`, 'value_error.field_kind');
        if (typeof given !== 'string') return this.typeError(loc, 'string');
        if (given.length > LIKE_PATTERN_MAX_CHARS) {
          return this.fail(
            loc,
            `a like pattern may have at most ${LIKE_PATTERN_MAX_CHARS} characters; this one has ${given.length}`,
            'value_error.like_pattern_too_long',
          );
        }
        return { kind: 'like', field, pattern: /[%_]/.test(given) ? given : `%${given}%` };
      case 'keyword':
      case 'fuzzy':
        return this.text(op, field, given, loc);
      case 'contains': {
        const element = field.steps.some((step) => 'each' in step) ? undefined : field.node.element;
        if (kind !== 'array' || !element || element.kind === 'object' || element.kind === 'array') {
          return this.fail(loc, `contains needs an array field of plain values; "${name}" is not one`, 'value_error.field_kind');
        }
        if (!fitsKind(given, element.kind)) return this.typeError(loc, element.kind);
        return { kind: 'contains', field, value: given as Scalar };
      }
      case 'any': {
        const element = field.node.element;
        if (kind !== 'array' || element?.kind !== 'object') {
          return this.fail(loc, `any needs an array field of objects; "${name}" is not one (use contains, or "${name}[]")`, 'value_error.field_kind');
        }
        return { kind: 'any', field, filter: this.parse(given, loc, element) };
      }
      default:
        return this.compare(op as (typeof COMPARE_OPS)[number], field, given, loc);
    }
  }

  private compare(op: (typeof COMPARE_OPS)[number], field: ResolvedField, given: unknown, loc: Loc): Filter {
    const { kind } = field.node;
    if (kind === 'object' || kind === 'array') {
      return this.fail(loc, `${op} compares plain values; "${field.name}" holds ${article(kind)} (name a field inside it)`, 'value_error.field_kind');
    }
    if (op !== 'eq' && op !== 'neq' && kind === 'boolean') return this.fail(loc, `${op} needs a number or string field`, 'value_error.field_kind');
    if (!fitsKind(given, kind)) return this.typeError(loc, kind);
    const value = given as Scalar;
    // neq is the exact complement of eq: it also holds for records without the field.
    if (op === 'neq') return { kind: 'not', filter: { kind: 'compare', op: 'eq', field, value } };
    return { kind: 'compare', op, field, value };
  }

  private text(op: 'keyword' | 'fuzzy', field: ResolvedField, given: unknown, loc: Loc): Filter {
    if (typeof given !== 'string') return this.typeError(loc, 'string');
    if (!field.words) {
      const indexed = this.catalog.textFields.filter((text) => text.words).map((text) => text.name);
      return this.fail(loc, `${op} needs a full-text field; "${field.name}" is not one. Full-text fields: ${indexed.join(', ')}`, 'value_error.not_text_field');
    }
    const words = queryWords(given);
    if (words.length === 0) return this.fail(loc, `${op} needs at least one word (letters or digits)`, 'value_error.no_words');
    if (words.length > MAX_TEXT_WORDS || words.some((word) => word.length > MAX_WORD_LENGTH)) {
      return this.fail(loc, `${op} takes at most ${MAX_TEXT_WORDS} words of at most ${MAX_WORD_LENGTH} characters`, 'value_error.too_long');
    }
    return { kind: op, field, words };
  }

  private typeError(loc: Loc, kind: FieldKind): Filter {
    const types: Record<FieldKind, string> = { string: 'str', number: 'number', boolean: 'bool', object: 'dict', array: 'list' };
    return this.fail(loc, `value is not a valid ${kind === 'string' ? 'string' : kind} (the field's type)`, `type_error.${types[kind]}`);
  }
}

function fitsKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === kind;
}

function article(kind: FieldKind): string {
  return kind === 'array' || kind === 'object' ? `an ${kind}` : `a ${kind}`;
}

function parseSort(catalog: FieldCatalog, sort: unknown, issues: ValidationIssue[]): SortKey[] {
  if (!Array.isArray(sort)) return [];
  return sort.flatMap((entry: Record<string, string>, index) => {
    const [name, direction] = Object.entries(entry)[0]!;
    const field = catalog.resolve(name);
    const loc = [...QUERY_LOC, 'sort', index, name];
    if (!field || field.steps.some((step) => 'each' in step) || field.node.kind === 'object' || field.node.kind === 'array') {
      issues.push({ loc, msg: `cannot sort by "${name}": sort by a plain field (${catalog.fieldNames().join(', ')})`, type: 'value_error.unknown_field' });
      return [];
    }
    return [{ field, descending: direction === 'desc' }];
  });
}

function parseFields(catalog: FieldCatalog, fields: unknown, issues: ValidationIssue[]): string[][] | undefined {
  if (!Array.isArray(fields)) return undefined;
  return fields.flatMap((entry: string | string[], index) => {
    const path = typeof entry === 'string' ? entry.split('.') : entry;
    const field = catalog.resolve(path.join('.'));
    if (!field || path.some((key) => key.endsWith('[]'))) {
      issues.push({ loc: ['body', 'params', 'fields', index], msg: `unknown field "${path.join('.')}"`, type: 'value_error.unknown_field' });
      return [];
    }
    return [path];
  });
}
