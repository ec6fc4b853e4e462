import { TemplateSyntaxError } from '../errors.ts';
import { PyFloat } from '../values.ts';
import type { CompareOp, Expr, Node, Target } from './ast.ts';
import { type Token, tokenize } from './lexer.ts';

/** How deep expressions and blocks may nest before parsing stops (deep recursion would overflow the stack). */
const MAX_NESTING = 100;

/**
 * Jinja's grammar with its precedences: `or` < `and` < `not` < comparisons < `+ -` < `~` < `* / // %`
 * < `**` < unary `- +` < filters and tests < postfix (`.x`, `[x]`, `(...)`). Tags other than
 * if/elif/else, for/else, set and raw are not available in the CDK's environment and fail to parse.
 */
export function parseTemplate(template: string, knownFilters: ReadonlySet<string>, knownTests: ReadonlySet<string>): Node[] {
  return new Parser(tokenize(template), knownFilters, knownTests).parseTemplate();
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly filters: ReadonlySet<string>,
    private readonly tests: ReadonlySet<string>,
  ) {}

  parseTemplate(): Node[] {
    const body = this.parseBody([]);
    if (this.peek().type !== 'eof') throw new TemplateSyntaxError(`unexpected '${this.describe(this.peek())}'`);
    return body;
  }

  // ---- tokens

  private peek(offset = 0): Token {
    return this.tokens[this.position + offset] ?? { type: 'eof' };
  }

  private next(): Token {
    const token = this.peek();
    this.position++;
    return token;
  }

  private describe(token: Token): string {
    if ('value' in token) return String(token.value);
    return token.type === 'eof' ? 'end of template' : token.type.replace('_', ' ');
  }

  private isOperator(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === 'operator' && token.value === value;
  }

  private isName(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === 'name' && token.value === value;
  }

  private expectOperator(value: string): void {
    if (!this.isOperator(value)) throw new TemplateSyntaxError(`expected '${value}', got '${this.describe(this.peek())}'`);
    this.position++;
  }

  private expectName(value?: string): string {
    const token = this.peek();
    if (token.type !== 'name' || (value !== undefined && token.value !== value)) {
      throw new TemplateSyntaxError(`expected ${value === undefined ? 'a name' : `'${value}'`}, got '${this.describe(token)}'`);
    }
    this.position++;
    return token.value;
  }

  private expect(type: Token['type']): void {
    const token = this.peek();
    if (token.type !== type) throw new TemplateSyntaxError(`expected ${type.replace('_', ' ')}, got '${this.describe(token)}'`);
    this.position++;
  }

  private nest<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING) throw new TemplateSyntaxError(`the template nests more than ${MAX_NESTING} levels deep`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  // ---- statements

  /** Nodes up to a `{% name %}` tag among `endTags` (left unconsumed), or the end of the template. */
  private parseBody(endTags: string[]): Node[] {
    const body: Node[] = [];
    for (;;) {
      const token = this.peek();
      if (token.type === 'eof') {
        if (endTags.length) throw new TemplateSyntaxError(`unexpected end of template, expected '${endTags.join("' or '")}'`);
        return body;
      }
      if (token.type === 'data') {
        this.position++;
        body.push({ kind: 'data', text: token.value });
      } else if (token.type === 'variable_begin') {
        this.position++;
        body.push({ kind: 'output', expr: this.parseTuple() });
        this.expect('variable_end');
      } else if (token.type === 'block_begin') {
        const tag = this.peek(1);
        if (tag.type === 'name' && endTags.includes(tag.value)) return body;
        this.position++;
        body.push(this.nest(() => this.parseStatement()));
      } else {
        throw new TemplateSyntaxError(`unexpected '${this.describe(token)}'`);
      }
    }
  }

  private parseStatement(): Node {
    const tag = this.expectName();
    switch (tag) {
      case 'if':
        return this.parseIf();
      case 'for':
        return this.parseFor();
      case 'set':
        return this.parseSet();
      default:
        throw new TemplateSyntaxError(`encountered unknown tag '${tag}'`);
    }
  }

  /** Consumes `{% name %}` (the block_begin already seen by parseBody). */
  private closeTag(name: string): void {
    this.expect('block_begin');
    this.expectName(name);
    this.expect('block_end');
  }

  private parseIf(): Node {
    const branches: Array<{ test: Expr; body: Node[] }> = [];
    let test = this.parseExpression();
    this.expect('block_end');
    let otherwise: Node[] = [];
    for (;;) {
      const body = this.parseBody(['elif', 'else', 'endif']);
      branches.push({ test, body });
      this.expect('block_begin');
      const tag = this.expectName();
      if (tag === 'elif') {
        test = this.parseExpression();
        this.expect('block_end');
        continue;
      }
      this.expect('block_end');
      if (tag === 'else') {
        otherwise = this.parseBody(['endif']);
        this.closeTag('endif');
      }
      return { kind: 'if', branches, otherwise };
    }
  }

  private parseFor(): Node {
    const target = this.parseAssignTarget(false);
    this.expectName('in');
    const iterable = this.parseTuple({ noCondition: true });
    let filter: Expr | null = null;
    if (this.isName('if')) {
      this.position++;
      filter = this.parseExpression();
    }
    if (this.isName('recursive')) throw new TemplateSyntaxError('recursive loops are not supported');
    this.expect('block_end');
    const body = this.parseBody(['else', 'endfor']);
    let otherwise: Node[] = [];
    this.expect('block_begin');
    const tag = this.expectName();
    this.expect('block_end');
    if (tag === 'else') {
      otherwise = this.parseBody(['endfor']);
      this.closeTag('endfor');
    }
    return { kind: 'for', target, iterable, filter, body, otherwise };
  }

  private parseSet(): Node {
    const target = this.parseAssignTarget(true);
    if (this.isOperator('=')) {
      this.position++;
      const value = this.parseTuple();
      this.expect('block_end');
      return { kind: 'set', target, value };
    }
    if (this.peek().type === 'operator' && this.isOperator('|')) throw new TemplateSyntaxError('filtered block set is not supported');
    this.expect('block_end');
    const body = this.parseBody(['endset']);
    this.closeTag('endset');
    return { kind: 'set_block', target, body };
  }

  private parseAssignTarget(allowNamespace: boolean): Target {
    const single = (): Target => {
      const name = this.expectName();
      if (allowNamespace && this.isOperator('.')) {
        this.position++;
        return { kind: 'namespace', name, attribute: this.expectName() };
      }
      if (['true', 'false', 'none', 'True', 'False', 'None'].includes(name)) throw new TemplateSyntaxError(`cannot assign to '${name}'`);
      return { kind: 'name', name };
    };
    const parenthesised = this.isOperator('(');
    if (parenthesised) this.position++;
    const items = [single()];
    while (this.isOperator(',')) {
      this.position++;
      if (this.peek().type !== 'name') break;
      items.push(single());
    }
    if (parenthesised) this.expectOperator(')');
    return items.length === 1 && !parenthesised ? items[0]! : { kind: 'tuple', items };
  }

  // ---- expressions

  /** An expression, or several separated by commas (a tuple), as `{{ }}` and `{% set %}` take. */
  private parseTuple(options: { noCondition?: boolean } = {}): Expr {
    const parse = () => (options.noCondition ? this.parseOr() : this.parseExpression());
    const first = parse();
    if (!this.isOperator(',')) return first;
    const items = [first];
    while (this.isOperator(',')) {
      this.position++;
      if (this.atExpressionEnd()) break;
      items.push(parse());
    }
    return { kind: 'tuple', items };
  }

  private atExpressionEnd(): boolean {
    const token = this.peek();
    return (
      token.type === 'variable_end' ||
      token.type === 'block_end' ||
      token.type === 'eof' ||
      (token.type === 'operator' && [')', ']', '}'].includes(token.value)) ||
      this.isName('if')
    );
  }

  private parseExpression(): Expr {
    return this.nest(() => {
      const value = this.parseOr();
      if (!this.isName('if')) return value;
      this.position++;
      const test = this.parseOr();
      let otherwise: Expr | null = null;
      if (this.isName('else')) {
        this.position++;
        otherwise = this.parseExpression();
      }
      return { kind: 'condition', test, whenTrue: value, whenFalse: otherwise };
    });
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isName('or')) {
      this.position++;
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.isName('and')) {
      this.position++;
      left = { kind: 'and', left, right: this.parseNot() };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.isName('not')) {
      this.position++;
      return this.nest(() => ({ kind: 'unary', op: 'not', operand: this.parseNot() }));
    }
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const first = this.parseMath1();
    const rest: Array<[CompareOp, Expr]> = [];
    for (;;) {
      const token = this.peek();
      if (token.type === 'operator' && ['==', '!=', '<', '<=', '>', '>='].includes(token.value)) {
        this.position++;
        rest.push([token.value as CompareOp, this.parseMath1()]);
      } else if (this.isName('in')) {
        this.position++;
        rest.push(['in', this.parseMath1()]);
      } else if (this.isName('not') && this.isName('in', 1)) {
        this.position += 2;
        rest.push(['not in', this.parseMath1()]);
      } else break;
    }
    return rest.length ? { kind: 'compare', first, rest } : first;
  }

  private parseMath1(): Expr {
    let left = this.parseConcat();
    while (this.isOperator('+') || this.isOperator('-')) {
      const op = (this.next() as { value: '+' | '-' }).value;
      left = { kind: 'binary', op, left, right: this.parseConcat() };
    }
    return left;
  }

  private parseConcat(): Expr {
    const parts = [this.parseMath2()];
    while (this.isOperator('~')) {
      this.position++;
      parts.push(this.parseMath2());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'concat', parts };
  }

  private parseMath2(): Expr {
    let left = this.parsePow();
    while (['*', '/', '//', '%'].some((op) => this.isOperator(op))) {
      const op = (this.next() as { value: '*' | '/' | '//' | '%' }).value;
      left = { kind: 'binary', op, left, right: this.parsePow() };
    }
    return left;
  }

  private parsePow(): Expr {
    let left = this.parseUnary(true);
    while (this.isOperator('**')) {
      this.position++;
      left = { kind: 'binary', op: '**', left, right: this.parseUnary(true) };
    }
    return left;
  }

  private parseUnary(withFilter: boolean): Expr {
    return this.nest(() => {
      let node: Expr;
      if (this.isOperator('-') || this.isOperator('+')) {
        const op = (this.next() as { value: '-' | '+' }).value;
        node = { kind: 'unary', op, operand: this.parseUnary(false) };
      } else {
        node = this.parsePrimary();
      }
      node = this.parsePostfix(node);
      return withFilter ? this.parseFilterExpr(node) : node;
    });
  }

  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.type) {
      case 'name':
        if (token.value === 'true' || token.value === 'True') return { kind: 'const', value: true };
        if (token.value === 'false' || token.value === 'False') return { kind: 'const', value: false };
        if (token.value === 'none' || token.value === 'None') return { kind: 'const', value: null };
        return { kind: 'name', name: token.value };
      case 'string': {
        let value = token.value;
        while (this.peek().type === 'string') value += (this.next() as { value: string }).value;
        return { kind: 'const', value };
      }
      case 'integer':
        return { kind: 'const', value: token.value };
      case 'float':
        return { kind: 'const', value: new PyFloat(token.value) };
      case 'operator':
        if (token.value === '(') return this.parseParenthesised();
        if (token.value === '[') return this.parseList();
        if (token.value === '{') return this.parseDict();
        break;
    }
    throw new TemplateSyntaxError(`unexpected '${this.describe(token)}'`);
  }

  private parseParenthesised(): Expr {
    if (this.isOperator(')')) {
      this.position++;
      return { kind: 'tuple', items: [] };
    }
    const first = this.parseExpression();
    if (this.isOperator(')')) {
      this.position++;
      return first;
    }
    const items = [first];
    while (this.isOperator(',')) {
      this.position++;
      if (this.isOperator(')')) break;
      items.push(this.parseExpression());
    }
    this.expectOperator(')');
    return { kind: 'tuple', items };
  }

  private parseList(): Expr {
    const items: Expr[] = [];
    while (!this.isOperator(']')) {
      if (items.length) this.expectOperator(',');
      if (this.isOperator(']')) break;
      items.push(this.parseExpression());
    }
    this.position++;
    return { kind: 'list', items };
  }

  private parseDict(): Expr {
    const pairs: Array<[Expr, Expr]> = [];
    while (!this.isOperator('}')) {
      if (pairs.length) this.expectOperator(',');
      if (this.isOperator('}')) break;
      const key = this.parseExpression();
      this.expectOperator(':');
      pairs.push([key, this.parseExpression()]);
    }
    this.position++;
    return { kind: 'dict', pairs };
  }

  private parsePostfix(start: Expr): Expr {
    let node = start;
    for (;;) {
      if (this.isOperator('.')) {
        this.position++;
        const token = this.next();
        if (token.type === 'name') node = { kind: 'getattr', object: node, attribute: token.value };
        else if (token.type === 'integer') node = { kind: 'getitem', object: node, key: { kind: 'const', value: token.value } };
        else throw new TemplateSyntaxError(`expected a name after '.', got '${this.describe(token)}'`);
      } else if (this.isOperator('[')) {
        this.position++;
        node = this.parseSubscript(node);
      } else if (this.isOperator('(')) {
        this.position++;
        const { args, kwargs } = this.parseCallArguments();
        node = { kind: 'call', callee: node, args, kwargs };
      } else {
        return node;
      }
    }
  }

  private parseSubscript(object: Expr): Expr {
    const part = (): Expr | null => (this.isOperator(':') || this.isOperator(']') ? null : this.parseExpression());
    const start = part();
    if (!this.isOperator(':')) {
      const keys = [start!];
      while (this.isOperator(',')) {
        this.position++;
        if (this.isOperator(']')) break;
        keys.push(this.parseExpression());
      }
      this.expectOperator(']');
      return { kind: 'getitem', object, key: keys.length === 1 ? keys[0]! : { kind: 'tuple', items: keys } };
    }
    this.position++;
    const stop = part();
    let step: Expr | null = null;
    if (this.isOperator(':')) {
      this.position++;
      step = part();
    }
    this.expectOperator(']');
    return { kind: 'slice', object, start, stop, step };
  }

  private parseCallArguments(): { args: Expr[]; kwargs: Array<[string, Expr]> } {
    const args: Expr[] = [];
    const kwargs: Array<[string, Expr]> = [];
    while (!this.isOperator(')')) {
      if (args.length || kwargs.length) this.expectOperator(',');
      if (this.isOperator(')')) break;
      if (this.isOperator('*') || this.isOperator('**')) throw new TemplateSyntaxError('*args and **kwargs are not supported');
      if (this.peek().type === 'name' && this.isOperator('=', 1)) {
        const name = this.expectName();
        this.position++;
        kwargs.push([name, this.parseExpression()]);
      } else {
        if (kwargs.length) throw new TemplateSyntaxError('positional argument after a keyword argument');
        args.push(this.parseExpression());
      }
    }
    this.position++;
    return { args, kwargs };
  }

  private parseFilterExpr(start: Expr): Expr {
    let node = start;
    for (;;) {
      if (this.isOperator('|')) {
        this.position++;
        let name = this.expectName();
        while (this.isOperator('.')) {
          this.position++;
          name += `.${this.expectName()}`;
        }
        if (!this.filters.has(name)) throw new TemplateSyntaxError(`no filter named '${name}'`);
        let call: { args: Expr[]; kwargs: Array<[string, Expr]> } = { args: [], kwargs: [] };
        if (this.isOperator('(')) {
          this.position++;
          call = this.parseCallArguments();
        }
        node = { kind: 'filter', value: node, name, ...call };
      } else if (this.isName('is')) {
        this.position++;
        const negated = this.isName('not');
        if (negated) this.position++;
        let name = this.expectName();
        while (this.isOperator('.')) {
          this.position++;
          name += `.${this.expectName()}`;
        }
        if (!this.tests.has(name)) throw new TemplateSyntaxError(`no test named '${name}'`);
        let call: { args: Expr[]; kwargs: Array<[string, Expr]> } = { args: [], kwargs: [] };
        const token = this.peek();
        if (this.isOperator('(')) {
          this.position++;
          call = this.parseCallArguments();
        } else if (
          (token.type === 'name' && !['else', 'or', 'and', 'if', 'is', 'in', 'not'].includes(token.value)) ||
          token.type === 'string' ||
          token.type === 'integer' ||
          token.type === 'float' ||
          this.isOperator('[') ||
          this.isOperator('{')
        ) {
          // `x is divisibleby 3`, `x is sameas false`: one argument without parentheses.
          call = { args: [this.parsePostfix(this.parsePrimary())], kwargs: [] };
        }
        node = { kind: 'test', value: node, name, negated, ...call };
      } else if (this.isOperator('(')) {
        this.position++;
        const { args, kwargs } = this.parseCallArguments();
        node = { kind: 'call', callee: node, args, kwargs };
      } else {
        return node;
      }
    }
  }
}
