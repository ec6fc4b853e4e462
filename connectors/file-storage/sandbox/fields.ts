import { invalidFieldSelection } from './errors.ts';
import { isArrayShape, isObjectShape, type Shape } from './field-schema.ts';

/**
 * Partial responses (`fields`), in Google's selector syntax:
 *   a,b            several fields
 *   a/b            field b inside a (also inside each element when a is an array)
 *   a(b,c)         sub-selection
 *   *              every field at that level
 * Spaces around names are tolerated (clients send "nextPageToken, files(id, name)").
 */

export interface AllSelection {
  readonly all: true;
}
export interface FieldSelection {
  readonly fields: ReadonlyMap<string, Selection>;
}
export type Selection = AllSelection | FieldSelection;

export const ALL: Selection = { all: true };

function isAll(sel: Selection): sel is AllSelection {
  return 'all' in sel;
}

function merge(a: Selection | undefined, b: Selection): Selection {
  if (!a) return b;
  if (isAll(a) || isAll(b)) return ALL;
  const out = new Map(a.fields);
  for (const [k, v] of b.fields) out.set(k, merge(out.get(k), v));
  return { fields: out };
}

class SelectorParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): Selection {
    const sel = this.list();
    this.skipSpace();
    if (this.pos < this.text.length) throw invalidFieldSelection(this.rest());
    return sel;
  }

  private rest(): string {
    return this.text.slice(this.pos).trim() || this.text;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] as string)) this.pos++;
  }

  private name(): string {
    this.skipSpace();
    const m = /^(\*|[A-Za-z0-9_.$-]+)/.exec(this.text.slice(this.pos));
    if (!m) throw invalidFieldSelection(this.rest());
    this.pos += (m[1] as string).length;
    return m[1] as string;
  }

  private peek(): string | undefined {
    this.skipSpace();
    return this.text[this.pos];
  }

  private list(): Selection {
    let sel: Selection | undefined;
    for (;;) {
      sel = merge(sel, this.item());
      if (this.peek() !== ',') return sel;
      this.pos++;
    }
  }

  private item(): Selection {
    const path = [this.name()];
    while (this.peek() === '/') {
      this.pos++;
      path.push(this.name());
    }
    let leaf: Selection = ALL;
    if (this.peek() === '(') {
      this.pos++;
      leaf = this.list();
      if (this.peek() !== ')') throw invalidFieldSelection(path.join('/'));
      this.pos++;
    }
    let sel = leaf;
    for (let i = path.length - 1; i >= 0; i--) {
      const key = path[i] as string;
      sel = key === '*' ? ALL : { fields: new Map([[key, sel]]) };
    }
    return sel;
  }
}

/** Parses and checks a selector against the resource shape; throws 400 invalidParameter on errors. */
export function parseFields(text: string, shape: Shape): Selection {
  const sel = new SelectorParser(text).parse();
  check(sel, shape);
  return sel;
}

function check(sel: Selection, shape: Shape): void {
  if (isAll(sel)) return;
  if (isArrayShape(shape)) return check(sel, shape.of);
  if (shape === 'map') return;
  for (const [name, sub] of sel.fields) {
    if (!isObjectShape(shape) || !Object.hasOwn(shape.fields, name)) throw invalidFieldSelection(name);
    check(sub, shape.fields[name] as Shape);
  }
}

/** Keeps only the selected parts of a response body. */
export function applyFields(value: unknown, sel: Selection): unknown {
  if (isAll(sel)) return value;
  if (Array.isArray(value)) return value.map((v) => applyFields(v, sel));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of sel.fields) {
    const v = source[name];
    if (v !== undefined) out[name] = applyFields(v, sub);
  }
  return out;
}

/** Whether `path` (e.g. ['files', 'md5Checksum']) is selected, so costly fields are computed only when asked for. */
export function isSelected(sel: Selection, path: readonly string[]): boolean {
  let cur: Selection = sel;
  for (const key of path) {
    if (isAll(cur)) return true;
    const next = cur.fields.get(key);
    if (!next) return false;
    cur = next;
  }
  return true;
}

/** The selection applied to one member (e.g. each of `files`), or undefined when not selected. */
export function subSelection(sel: Selection, key: string): Selection | undefined {
  if (isAll(sel)) return ALL;
  return sel.fields.get(key);
}
