import { TemplateSyntaxError } from '../errors.ts';

/**
 * Jinja's lexer with the CDK's settings: `{{ }}`, `{% %}`, `{# #}`, `-` whitespace control,
 * `{% raw %}`, no line statements, no trim_blocks, and one trailing newline of the template dropped.
 */

export type Token =
  | { type: 'data'; value: string }
  | { type: 'variable_begin' | 'variable_end' | 'block_begin' | 'block_end' | 'eof' }
  | { type: 'name'; value: string }
  | { type: 'string'; value: string }
  | { type: 'integer'; value: number | bigint }
  | { type: 'float'; value: number }
  | { type: 'operator'; value: string };

const FLOAT = /(?<!\.)(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?[eE][+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/y;
const INTEGER = /(?:0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0[xX](?:_?[\da-fA-F])+|[1-9](?:_?\d)*|0(?:_?0)*)/y;
const NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;
const STRING = /'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/sy;
const WHITESPACE = /\s+/y;
const TAG_START = /\{[{%#]/g;
const OPERATORS = ['//', '**', '==', '!=', '>=', '<=', '+', '-', '/', '*', '%', '~', '[', ']', '(', ')', '{', '}', '>', '<', '=', '.', ':', '|', ',', ';'];
const OPENING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function sticky(regex: RegExp, source: string, position: number): string | null {
  regex.lastIndex = position;
  const match = regex.exec(source);
  return match ? match[0] : null;
}

export function tokenize(template: string): Token[] {
  let source = template.replace(/\r\n|\r/g, '\n');
  if (source.endsWith('\n')) source = source.slice(0, -1);
  const tokens: Token[] = [];
  let position = 0;
  let stripNextData = false;

  const pushData = (text: string) => {
    const value = stripNextData ? text.replace(/^\s+/, '') : text;
    stripNextData = false;
    if (value) tokens.push({ type: 'data', value });
  };

  while (position < source.length) {
    TAG_START.lastIndex = position;
    const found = TAG_START.exec(source);
    if (!found) {
      pushData(source.slice(position));
      break;
    }
    const tagStart = found.index;
    const kind = source[tagStart + 1]!;
    const marker = source[tagStart + 2];
    let data = source.slice(position, tagStart);
    if (marker === '-') data = data.replace(/\s+$/, '');
    pushData(data);
    let cursor = tagStart + 2 + (marker === '-' || marker === '+' ? 1 : 0);

    if (kind === '#') {
      const end = source.indexOf('#}', cursor);
      if (end === -1) throw new TemplateSyntaxError('missing end of comment tag');
      stripNextData = source[end - 1] === '-';
      position = end + 2;
      continue;
    }

    const endDelimiter = kind === '{' ? '}}' : '%}';
    tokens.push({ type: kind === '{' ? 'variable_begin' : 'block_begin' });
    const firstToken = tokens.length;
    const balance: string[] = [];
    for (;;) {
      const space = sticky(WHITESPACE, source, cursor);
      if (space) cursor += space.length;
      if (cursor >= source.length) throw new TemplateSyntaxError(`unexpected end of template, expected '${endDelimiter}'`);
      if (balance.length === 0) {
        if (source.startsWith(`-${endDelimiter}`, cursor)) {
          cursor += 3;
          stripNextData = true;
          break;
        }
        if (source.startsWith(endDelimiter, cursor)) {
          cursor += 2;
          break;
        }
      }
      const token = readToken(source, cursor);
      if (!token) throw new TemplateSyntaxError(`unexpected character ${JSON.stringify(source[cursor])}`);
      cursor = token.end;
      if (token.token.type === 'operator') {
        const op = token.token.value;
        if (OPENING[op]) balance.push(OPENING[op]!);
        else if (op === ')' || op === ']' || op === '}') {
          if (balance.pop() !== op) throw new TemplateSyntaxError(`unexpected '${op}'`);
        }
      }
      tokens.push(token.token);
    }
    tokens.push({ type: kind === '{' ? 'variable_end' : 'block_end' });
    position = cursor;

    // {% raw %}...{% endraw %}: the text between is data, unparsed.
    const first = tokens[firstToken];
    if (kind === '%' && first?.type === 'name' && first.value === 'raw' && tokens.length === firstToken + 2) {
      tokens.length = firstToken - 1;
      const endRaw = /\{%([-+]?)\s*endraw\s*(-?)%\}/g;
      endRaw.lastIndex = position;
      const match = endRaw.exec(source);
      if (!match) throw new TemplateSyntaxError('missing end of raw directive');
      let raw = source.slice(position, match.index);
      if (match[1] === '-') raw = raw.replace(/\s+$/, '');
      pushData(raw);
      stripNextData = match[2] === '-';
      position = match.index + match[0].length;
    }
  }
  tokens.push({ type: 'eof' });
  return tokens;
}

function readToken(source: string, position: number): { token: Token; end: number } | null {
  const float = sticky(FLOAT, source, position);
  if (float) return { token: { type: 'float', value: Number(float.replace(/_/g, '')) }, end: position + float.length };
  const integer = sticky(INTEGER, source, position);
  if (integer) {
    const digits = integer.replace(/_/g, '');
    const big = /^0[oO]/.test(digits) ? BigInt(`0o${digits.slice(2)}`) : BigInt(digits);
    const value = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    return { token: { type: 'integer', value }, end: position + integer.length };
  }
  const name = sticky(NAME, source, position);
  if (name) return { token: { type: 'name', value: name }, end: position + name.length };
  STRING.lastIndex = position;
  const string = STRING.exec(source);
  if (string) return { token: { type: 'string', value: unescapeString(string[1] ?? string[2] ?? '') }, end: position + string[0].length };
  const op = OPERATORS.find((candidate) => source.startsWith(candidate, position));
  if (op) return { token: { type: 'operator', value: op }, end: position + op.length };
  return null;
}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '' };

/** Python's `unicode-escape` decoding, which Jinja applies to string literals; unknown escapes stay as written. */
export function unescapeString(text: string): string {
  return text.replace(/\\(x[\s\S]{0,2}|u[\s\S]{0,4}|U[\s\S]{0,8}|[0-7]{1,3}|[\s\S])/g, (whole, sequence: string) => {
    const simple = SIMPLE_ESCAPES[sequence];
    if (simple !== undefined) return simple;
    const head = sequence[0]!;
    if (head === 'x' || head === 'u' || head === 'U') {
      const width = head === 'x' ? 2 : head === 'u' ? 4 : 8;
      const hex = sequence.slice(1);
      if (hex.length !== width || !/^[\da-fA-F]+$/.test(hex)) throw new TemplateSyntaxError(`truncated \\${head} sequence in a string`);
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) throw new TemplateSyntaxError('illegal Unicode character in a string');
      return String.fromCodePoint(code);
    }
    if (/^[0-7]+$/.test(sequence)) return String.fromCodePoint(Number.parseInt(sequence, 8));
    return whole;
  });
}
