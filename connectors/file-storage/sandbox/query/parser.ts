/**
 * Parser for Drive's search query language (the `q` parameter of files.list and drives.list):
 *
 *   expr    := and ('or' and)*
 *   and     := unary ('and' unary)*
 *   unary   := 'not' unary | '(' expr ')' | term
 *   term    := STRING 'in' FIELD                           'abc' in parents
 *            | FIELD ('=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains') VALUE
 *            | FIELD 'has' '{' 'key' '=' STRING 'and' 'value' '=' STRING '}'
 *   VALUE   := STRING | true | false | NUMBER
 *
 * Strings are single-quoted; inside them \' is a quote and \\ a backslash. Keywords are
 * case-insensitive, field names are not. Which fields and operators are allowed is the dialect's
 * business (compile.ts); this file only knows the grammar.
 */

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains';

export type QValue = { type: 'string'; value: string } | { type: 'bool'; value: boolean } | { type: 'number'; value: number };

export type QExpr =
  | { kind: 'and' | 'or'; items: QExpr[] }
  | { kind: 'not'; item: QExpr }
  | { kind: 'compare'; field: string; op: CompareOp; value: QValue }
  | { kind: 'in'; value: string; field: string }
  | { kind: 'has'; field: string; key: string; value: string };

export class QuerySyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuerySyntaxError';
  }
}

type Token =
  | { type: 'string'; value: string }
  | { type: 'word'; value: string }
  | { type: 'number'; value: number }
  | { type: 'op'; value: '=' | '!=' | '<' | '<=' | '>' | '>=' }
  | { type: '(' | ')' | '{' | '}' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new QuerySyntaxError('unterminated string');
        const d = text[i] as string;
        if (d === '\\') {
          if (i + 1 >= text.length) throw new QuerySyntaxError('dangling escape');
          value += text[i + 1];
          i += 2;
        } else if (d === "'") {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push({ type: 'string', value });
    } else if (c === '(' || c === ')' || c === '{' || c === '}') {
      tokens.push({ type: c });
      i++;
    } else if (c === '!' || c === '<' || c === '>' || c === '=') {
      const two = text.slice(i, i + 2);
      if (two === '!=' || two === '<=' || two === '>=') {
        tokens.push({ type: 'op', value: two });
        i += 2;
      } else if (c === '!') {
        throw new QuerySyntaxError('unexpected !');
      } else {
        tokens.push({ type: 'op', value: c as '=' | '<' | '>' });
        i++;
      }
    } else if (/[0-9-]/.test(c)) {
      const m = /^-?\d+(\.\d+)?/.exec(text.slice(i));
      if (!m) throw new QuerySyntaxError(`unexpected ${c}`);
      tokens.push({ type: 'number', value: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'word', value: m[0] });
      i += m[0].length;
    } else {
      throw new QuerySyntaxError(`unexpected ${c}`);
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): QExpr {
    if (this.tokens.length === 0) throw new QuerySyntaxError('empty query');
    const expr = this.or();
    if (this.pos < this.tokens.length) throw new QuerySyntaxError('trailing input');
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) throw new QuerySyntaxError('unexpected end of query');
    return t;
  }

  private isKeyword(word: string): boolean {
    const t = this.peek();
    return t?.type === 'word' && t.value.toLowerCase() === word;
  }

  private expectKeyword(word: string): void {
    if (!this.isKeyword(word)) throw new QuerySyntaxError(`expected ${word}`);
    this.pos++;
  }

  private expect(type: '(' | ')' | '{' | '}'): void {
    if (this.next().type !== type) throw new QuerySyntaxError(`expected ${type}`);
  }

  private or(): QExpr {
    const items = [this.and()];
    while (this.isKeyword('or')) {
      this.pos++;
      items.push(this.and());
    }
    return items.length === 1 ? (items[0] as QExpr) : { kind: 'or', items };
  }

  private and(): QExpr {
    const items = [this.unary()];
    while (this.isKeyword('and')) {
      this.pos++;
      items.push(this.unary());
    }
    return items.length === 1 ? (items[0] as QExpr) : { kind: 'and', items };
  }

  private unary(): QExpr {
    if (this.isKeyword('not')) {
      this.pos++;
      return { kind: 'not', item: this.unary() };
    }
    if (this.peek()?.type === '(') {
      this.pos++;
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    return this.term();
  }

  private stringValue(): string {
    const t = this.next();
    if (t.type !== 'string') throw new QuerySyntaxError('expected a quoted string');
    return t.value;
  }

  private term(): QExpr {
    const first = this.next();
    if (first.type === 'string') {
      this.expectKeyword('in');
      const field = this.next();
      if (field.type !== 'word') throw new QuerySyntaxError('expected a field after in');
      return { kind: 'in', value: first.value, field: field.value };
    }
    if (first.type !== 'word') throw new QuerySyntaxError('expected a field');
    const field = first.value;
    if (this.isKeyword('has')) {
      this.pos++;
      this.expect('{');
      this.expectKeyword('key');
      if (this.next().type !== 'op') throw new QuerySyntaxError('expected =');
      const key = this.stringValue();
      this.expectKeyword('and');
      this.expectKeyword('value');
      if (this.next().type !== 'op') throw new QuerySyntaxError('expected =');
      const value = this.stringValue();
      this.expect('}');
      return { kind: 'has', field, key, value };
    }
    let op: CompareOp;
    if (this.isKeyword('contains')) {
      this.pos++;
      op = 'contains';
    } else {
      const t = this.next();
      if (t.type !== 'op') throw new QuerySyntaxError('expected an operator');
      op = t.value;
    }
    const v = this.next();
    let value: QValue;
    if (v.type === 'string') value = { type: 'string', value: v.value };
    else if (v.type === 'number') value = { type: 'number', value: v.value };
    else if (v.type === 'word' && (v.value.toLowerCase() === 'true' || v.value.toLowerCase() === 'false')) {
      value = { type: 'bool', value: v.value.toLowerCase() === 'true' };
    } else throw new QuerySyntaxError('expected a value');
    return { kind: 'compare', field, op, value };
  }
}

export function parseQuery(text: string): QExpr {
  return new Parser(tokenize(text)).parse();
}
