import { PyFloat } from '../values.ts';
import { hashKey } from './mapping.ts';

/**
 * Python's `ast.literal_eval` on the rendered text, which is how the CDK turns `"123"` into 123:
 * numbers (underscores, hex/octal/binary, exponents; no leading zeros), strings in any quoting,
 * True/False/None, lists, tuples, sets, dicts, `set()`, a sign on a number, and complex sums.
 * Anything else (a name, an operator, bad syntax, an unhashable key) is `null`: the text stays text.
 */

export type Literal =
  | { type: 'NoneType' }
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: bigint }
  | { type: 'float'; value: number }
  | { type: 'complex'; real: number; imag: number }
  | { type: 'str'; value: string }
  | { type: 'list' | 'tuple' | 'set'; items: Literal[] }
  | { type: 'dict'; entries: Array<[Literal, Literal]> };

type Token =
  | { kind: 'number'; literal: Literal }
  | { kind: 'string'; value: string; bytes: boolean }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string }
  | { kind: 'end' };

type Syntax =
  | { kind: 'const'; literal: Literal }
  | { kind: 'name'; name: string }
  | { kind: 'list' | 'tuple' | 'set'; items: Syntax[] }
  | { kind: 'dict'; entries: Array<[Syntax, Syntax]> }
  | { kind: 'call'; callee: Syntax; hasArgs: boolean }
  | { kind: 'unary'; op: string; operand: Syntax }
  | { kind: 'binary'; op: string; left: Syntax; right: Syntax };

class Failure extends Error {}

/** One shared instance: most rendered texts are not literals (a URL, a name), and building an Error's stack for each costs more than the parse. */
const FAILURE = new Failure('not a Python literal');

const fail = (): never => {
  throw FAILURE;
};

/** Python's limits: parentheses nest at most 200 deep, an int has at most 4300 digits. */
const MAX_NESTING = 200;
const MAX_INT_DIGITS = 4300;

export function literalEval(text: string): Literal | null {
  if (startsWithPlainName(text)) return null;
  try {
    const tokens = tokenize(text.replace(/^[ \t]+/, ''));
    const parser = new Parser(tokens);
    const syntax = parser.parseTop();
    return convert(syntax);
  } catch (error) {
    if (error instanceof Failure) return null;
    throw error;
  }
}

const LEADING_NAME = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)([\s\S]?)/;
const LITERAL_NAMES = new Set(['True', 'False', 'None', 'set']);
const MAX_SHORTCUT_LENGTH = 1000;

/**
 * Whether the text starts with a name that no literal starts with (not True, False, None, `set`, nor a
 * string prefix before its quote): a word, a URL, a token, most rendered texts. A name is never part
 * of a literal, so these are not, and are answered without tokenizing. Long texts are parsed anyway:
 * a deep run of signs after the name overflows the parser's stack, an error this must not hide.
 */
function startsWithPlainName(text: string): boolean {
  if (text.length > MAX_SHORTCUT_LENGTH) return false;
  const match = LEADING_NAME.exec(text);
  if (!match || LITERAL_NAMES.has(match[1]!)) return false;
  // A non-ASCII letter may continue the name; a quote may follow a string prefix.
  const next = match[2]!;
  return next === '' || (next.charCodeAt(0) <= 0x7f && next !== "'" && next !== '"');
}

// ---- tokens

const DIGITS = '\\d(?:_?\\d)*';
const EXPONENT = `[eE][+-]?${DIGITS}`;
const POINT_FLOAT = `(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.)`;
const FLOAT = `(?:${POINT_FLOAT}(?:${EXPONENT})?|${DIGITS}${EXPONENT})`;
const NUMBER = new RegExp(
  `(?:(${FLOAT}|${DIGITS})[jJ]|(${FLOAT})|(0[xX](?:_?[\\da-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?\\d)*|0(?:_?0)*))`,
  'y',
);
const IDENTIFIER = /[\p{L}_][\p{L}\p{N}_]*/uy;
const STRING_START = /([rRbBuUfF]{0,2})('''|"""|'|")/y;
const INDENT = /[ \t\f]*/y;

function tokenize(source: string): Token[] {
  if (source.includes('\0')) fail();
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  let lineStart = true;
  let sawLogicalLine = false;
  while (i < source.length) {
    const char = source[i]!;
    if (lineStart) {
      // A physical line: blank or comment lines are skipped; an indented line is an IndentationError.
      INDENT.lastIndex = i;
      const indent = INDENT.exec(source)![0].length;
      const after = source[i + indent];
      if (after === undefined || after === '\n' || after === '\r' || after === '#') {
        i += indent;
        if (after === '#') while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
        if (i < source.length) i += source.startsWith('\r\n', i) ? 2 : 1;
        continue;
      }
      if (sawLogicalLine || (indent > 0 && depth === 0)) fail();
      i += indent;
      lineStart = false;
      sawLogicalLine = true;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\f') {
      i++;
      continue;
    }
    if (char === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
      continue;
    }
    if (char === '\\' && (source[i + 1] === '\n' || source[i + 1] === '\r')) {
      i += source.startsWith('\r\n', i + 1) ? 3 : 2;
      continue;
    }
    if (char === '\n' || char === '\r') {
      i += source.startsWith('\r\n', i) ? 2 : 1;
      if (depth === 0) lineStart = true;
      continue;
    }
    STRING_START.lastIndex = i;
    const stringStart = STRING_START.exec(source);
    if (stringStart && /^(?:[rRbBuUfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])?$/.test(stringStart[1]!)) {
      const { token, end } = readString(source, i, stringStart[1]!, stringStart[2]!);
      tokens.push(token);
      i = end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(source);
    if (number && (i === 0 || !/[\p{L}\p{N}_]/u.test(source[i - 1]!))) {
      const end = i + number[0].length;
      if (end < source.length && /[\p{L}\p{N}_.]/u.test(source[end]!)) fail();
      tokens.push({ kind: 'number', literal: numberLiteral(number) });
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const name = IDENTIFIER.exec(source);
    if (name) {
      tokens.push({ kind: 'name', value: name[0] });
      i += name[0].length;
      continue;
    }
    if (source.startsWith('...', i)) fail(); // Ellipsis: a literal in Python, kept as text here
    if ('([{'.includes(char)) {
      if (++depth > MAX_NESTING) fail();
    } else if (')]}'.includes(char)) depth--;
    if (!'()[]{},:+-'.includes(char)) fail();
    tokens.push({ kind: 'op', value: char });
    i++;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

function numberLiteral(match: RegExpExecArray): Literal {
  const [, imaginary, float, integer] = match;
  if (imaginary !== undefined) return { type: 'complex', real: 0, imag: Number(imaginary.replace(/_/g, '')) };
  if (float !== undefined) return { type: 'float', value: Number(float.replace(/_/g, '')) };
  const digits = integer!.replace(/_/g, '');
  if (/^\d+$/.test(digits) && digits.replace(/^0+/, '').length > MAX_INT_DIGITS) fail();
  const value = /^0[oO]/.test(digits) ? BigInt(`0o${digits.slice(2)}`) : BigInt(digits);
  return { type: 'int', value };
}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

function readString(source: string, start: number, prefix: string, quote: string): { token: Token; end: number } {
  const lower = prefix.toLowerCase();
  if (lower.includes('f')) fail(); // an f-string is not a literal
  const raw = lower.includes('r');
  const bytes = lower.includes('b');
  let i = start + prefix.length + quote.length;
  let value = '';
  for (;;) {
    if (i >= source.length) fail();
    if (source.startsWith(quote, i)) return { token: { kind: 'string', value, bytes }, end: i + quote.length };
    const char = source[i]!;
    if ((char === '\n' || char === '\r') && quote.length === 1) fail();
    if (bytes && char.charCodeAt(0) > 0x7f) fail();
    if (char !== '\\') {
      value += char;
      i++;
      continue;
    }
    const next = source[i + 1];
    if (next === undefined) fail();
    if (raw) {
      value += `\\${next}`;
      i += 2;
      continue;
    }
    if (next === '\n') {
      i += 2;
      continue;
    }
    if (next === '\r') {
      i += source.startsWith('\r\n', i + 1) ? 3 : 2;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next!];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(source.slice(i + 1, i + 4));
    if (octal) {
      value += String.fromCodePoint(Number.parseInt(octal[0], 8));
      i += 1 + octal[0].length;
      continue;
    }
    const width = next === 'x' ? 2 : next === 'u' && !bytes ? 4 : next === 'U' && !bytes ? 8 : 0;
    if (width) {
      const hex = source.slice(i + 2, i + 2 + width);
      if (hex.length !== width || !/^[\da-fA-F]+$/.test(hex)) fail();
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) fail();
      value += String.fromCodePoint(code);
      i += 2 + width;
      continue;
    }
    if (next === 'N' && !bytes) fail(); // \N{name}: no Unicode name table here
    value += `\\${next}`;
    i += 2;
  }
}

// ---- syntax

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.position]!;
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.value === value;
  }

  private expectOp(value: string): void {
    if (!this.isOp(value)) fail();
    this.position++;
  }

  parseTop(): Syntax {
    const result = this.parseList(() => this.peek().kind === 'end');
    if (this.peek().kind !== 'end') fail();
    return result;
  }

  /** `a`, or `a, b, ...` (a tuple), up to a closing token. */
  private parseList(atEnd: () => boolean): Syntax {
    if (atEnd()) fail();
    const first = this.parseSum();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.position++;
      if (atEnd()) break;
      items.push(this.parseSum());
    }
    return { kind: 'tuple', items };
  }

  private parseSum(): Syntax {
    let left = this.parseUnary();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.tokens[this.position++] as { value: string }).value;
      left = { kind: 'binary', op, left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): Syntax {
    if (this.isOp('+') || this.isOp('-')) {
      const op = (this.tokens[this.position++] as { value: string }).value;
      return { kind: 'unary', op, operand: this.parseUnary() };
    }
    let atom = this.parseAtom();
    while (this.isOp('(')) {
      this.position++;
      const hasArgs = !this.isOp(')');
      if (hasArgs) this.parseList(() => this.isOp(')'));
      this.expectOp(')');
      atom = { kind: 'call', callee: atom, hasArgs };
    }
    return atom;
  }

  private parseAtom(): Syntax {
    const token = this.tokens[this.position++]!;
    switch (token.kind) {
      case 'number':
        return { kind: 'const', literal: token.literal };
      case 'string': {
        let value = token.value;
        const bytes = token.bytes;
        while (this.peek().kind === 'string') {
          const next = this.tokens[this.position++] as { value: string; bytes: boolean };
          if (next.bytes !== bytes) fail();
          value += next.value;
        }
        if (bytes) fail(); // bytes: a literal in Python, kept as text here
        return { kind: 'const', literal: { type: 'str', value } };
      }
      case 'name':
        if (token.value === 'True' || token.value === 'False') return { kind: 'const', literal: { type: 'bool', value: token.value === 'True' } };
        if (token.value === 'None') return { kind: 'const', literal: { type: 'NoneType' } };
        return { kind: 'name', name: token.value };
      case 'op':
        if (token.value === '(') {
          if (this.isOp(')')) {
            this.position++;
            return { kind: 'tuple', items: [] };
          }
          const inner = this.parseList(() => this.isOp(')'));
          this.expectOp(')');
          return inner;
        }
        if (token.value === '[') {
          const items: Syntax[] = [];
          while (!this.isOp(']')) {
            items.push(this.parseSum());
            if (!this.isOp(',')) break;
            this.position++;
          }
          this.expectOp(']');
          return { kind: 'list', items };
        }
        if (token.value === '{') return this.parseBraces();
        return fail();
      default:
        return fail();
    }
  }

  private parseBraces(): Syntax {
    if (this.isOp('}')) {
      this.position++;
      return { kind: 'dict', entries: [] };
    }
    const first = this.parseSum();
    if (this.isOp(':')) {
      this.position++;
      const entries: Array<[Syntax, Syntax]> = [[first, this.parseSum()]];
      while (this.isOp(',')) {
        this.position++;
        if (this.isOp('}')) break;
        const key = this.parseSum();
        this.expectOp(':');
        entries.push([key, this.parseSum()]);
      }
      this.expectOp('}');
      return { kind: 'dict', entries };
    }
    const items = [first];
    while (this.isOp(',')) {
      this.position++;
      if (this.isOp('}')) break;
      items.push(this.parseSum());
    }
    this.expectOp('}');
    return { kind: 'set', items };
  }
}

// ---- literal_eval's conversion

function convert(node: Syntax): Literal {
  switch (node.kind) {
    case 'const':
      return node.literal;
    case 'list':
    case 'tuple':
      return { type: node.kind, items: node.items.map(convert) };
    case 'set': {
      const items = node.items.map(convert);
      const seen = new Set<string>();
      return {
        type: 'set',
        items: items.filter((item) => {
          const hash = literalHash(item);
          if (seen.has(hash)) return false;
          seen.add(hash);
          return true;
        }),
      };
    }
    case 'dict': {
      const entries = new Map<string, [Literal, Literal]>();
      for (const [key, value] of node.entries) {
        const converted = convert(key);
        const hash = literalHash(converted);
        const existing = entries.get(hash);
        entries.set(hash, [existing ? existing[0] : converted, convert(value)]);
      }
      return { type: 'dict', entries: [...entries.values()] };
    }
    case 'call':
      if (node.callee.kind === 'name' && node.callee.name === 'set' && !node.hasArgs) return { type: 'set', items: [] };
      return fail();
    case 'unary':
      return signedNumber(node);
    case 'binary': {
      const left = signedNumber(node.left);
      const right = node.right.kind === 'const' ? node.right.literal : fail();
      if (left.type === 'complex' || right.type !== 'complex') return fail();
      const real = left.type === 'int' ? Number(left.value) : (left as { value: number }).value;
      return { type: 'complex', real: real, imag: node.op === '+' ? right.imag : -right.imag };
    }
    default:
      return fail();
  }
}

function signedNumber(node: Syntax): Literal {
  if (node.kind === 'const') {
    if (!['int', 'float', 'complex'].includes(node.literal.type)) fail();
    return node.literal;
  }
  if (node.kind !== 'unary' || node.operand.kind !== 'const') return fail();
  const literal = node.operand.literal;
  const negate = node.op === '-';
  switch (literal.type) {
    case 'int':
      return { type: 'int', value: negate ? -literal.value : literal.value };
    case 'float':
      return { type: 'float', value: negate ? -literal.value : literal.value };
    case 'complex':
      return { type: 'complex', real: negate ? -literal.real : literal.real, imag: negate ? -literal.imag : literal.imag };
    default:
      return fail();
  }
}

/** Python's hash equality for literal keys: 1, 1.0 and True are one key; lists, dicts and sets are unhashable. */
function literalHash(literal: Literal): string {
  switch (literal.type) {
    case 'list':
    case 'dict':
    case 'set':
      return fail();
    case 'tuple':
      return `t:(${literal.items.map(literalHash).join(',')})`;
    case 'complex':
      return literal.imag === 0 ? hashKey(new PyFloat(literal.real)) : `c:${literal.real},${literal.imag}`;
    default:
      return hashKey(toEngineValue(literal));
  }
}

function toEngineValue(literal: Literal): unknown {
  switch (literal.type) {
    case 'NoneType':
      return null;
    case 'bool':
    case 'str':
      return literal.value;
    case 'int':
      return literal.value;
    case 'float':
      return new PyFloat(literal.value);
    default:
      return null;
  }
}
