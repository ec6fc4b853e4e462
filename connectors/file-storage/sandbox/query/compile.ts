import { parseRfc3339 } from '../clock.ts';
import { parseQuery, QuerySyntaxError, type CompareOp, type QExpr } from './parser.ts';

/**
 * Turns a parsed query into a predicate, checking each term against a dialect: the fields a method
 * searches, their types and the operators Drive allows on each. Anything else (unknown field,
 * operator not allowed on the field, value of the wrong type, malformed date) is a query error,
 * which Drive reports as 400 "Invalid Value" on `q`.
 */

export type FieldSpec<T> =
  | {
      type: 'string';
      ops: readonly CompareOp[];
      get(item: T): string | undefined;
      /** How `contains` matches on this field (defaults to case-insensitive substring). */
      contains?(value: string, needle: string, item: T): boolean;
    }
  | { type: 'date'; ops: readonly CompareOp[]; get(item: T): number | undefined }
  | { type: 'bool'; ops: readonly CompareOp[]; get(item: T): boolean }
  | { type: 'number'; ops: readonly CompareOp[]; get(item: T): number }
  /** Fields used as `'value' in field`. */
  | { type: 'collection'; has(item: T, value: string): boolean }
  /** Fields used as `field has { key='k' and value='v' }`. */
  | { type: 'map'; get(item: T): Readonly<Record<string, string>> | undefined };

export type Dialect<T> = Readonly<Record<string, FieldSpec<T>>>;

export type Predicate<T> = (item: T) => boolean;

export const DATE_OPS: readonly CompareOp[] = ['<', '<=', '=', '!=', '>', '>='];
export const EQUALITY_OPS: readonly CompareOp[] = ['=', '!='];

function field<T>(dialect: Dialect<T>, name: string): FieldSpec<T> {
  if (!Object.hasOwn(dialect, name)) throw new QuerySyntaxError(`unknown field ${name}`);
  return dialect[name] as FieldSpec<T>;
}

function compareNumbers(a: number, op: CompareOp, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return false;
  }
}

function compileNode<T>(expr: QExpr, dialect: Dialect<T>): Predicate<T> {
  switch (expr.kind) {
    case 'and': {
      const parts = expr.items.map((e) => compileNode(e, dialect));
      return (item) => parts.every((p) => p(item));
    }
    case 'or': {
      const parts = expr.items.map((e) => compileNode(e, dialect));
      return (item) => parts.some((p) => p(item));
    }
    case 'not': {
      const inner = compileNode(expr.item, dialect);
      return (item) => !inner(item);
    }
    case 'in': {
      const spec = field(dialect, expr.field);
      if (spec.type !== 'collection') throw new QuerySyntaxError(`${expr.field} does not support in`);
      const value = expr.value;
      return (item) => spec.has(item, value);
    }
    case 'has': {
      const spec = field(dialect, expr.field);
      if (spec.type !== 'map') throw new QuerySyntaxError(`${expr.field} does not support has`);
      const { key, value } = expr;
      return (item) => spec.get(item)?.[key] === value;
    }
    case 'compare': {
      const spec = field(dialect, expr.field);
      if (spec.type === 'collection' || spec.type === 'map' || !spec.ops.includes(expr.op)) {
        throw new QuerySyntaxError(`${expr.field} does not support ${expr.op}`);
      }
      const { op, value } = expr;
      switch (spec.type) {
        case 'string': {
          if (value.type !== 'string') throw new QuerySyntaxError(`${expr.field} needs a string`);
          const needle = value.value;
          if (op === 'contains') {
            const lower = needle.toLowerCase();
            const match = spec.contains ?? ((v: string) => v.toLowerCase().includes(lower));
            return (item) => {
              const v = spec.get(item);
              return v !== undefined && match(v, needle, item);
            };
          }
          return (item) => (op === '=' ? spec.get(item) === needle : spec.get(item) !== needle);
        }
        case 'date': {
          if (value.type !== 'string') throw new QuerySyntaxError(`${expr.field} needs a date string`);
          const at = parseRfc3339(value.value);
          if (Number.isNaN(at)) throw new QuerySyntaxError(`bad date ${value.value}`);
          return (item) => {
            const v = spec.get(item);
            return v !== undefined && compareNumbers(v, op, at);
          };
        }
        case 'bool': {
          if (value.type !== 'bool') throw new QuerySyntaxError(`${expr.field} needs true or false`);
          const want = value.value;
          return (item) => (op === '=' ? spec.get(item) === want : spec.get(item) !== want);
        }
        case 'number': {
          if (value.type !== 'number') throw new QuerySyntaxError(`${expr.field} needs a number`);
          const n = value.value;
          return (item) => compareNumbers(spec.get(item), op, n);
        }
      }
    }
  }
}

/** Parses and compiles `q`; throws QuerySyntaxError for anything Drive would reject. */
export function compileQuery<T>(text: string, dialect: Dialect<T>): Predicate<T> {
  return compileNode(parseQuery(text), dialect);
}
