import { RenderError } from '../errors.ts';
import { PY_WHITESPACE } from '../python/whitespace.ts';

/**
 * Python `re` syntax, parsed into a tree the linear-time matcher compiles. Everything a manifest
 * needs is here (classes, groups, named groups, alternation, greedy and lazy repetition, anchors,
 * inline flags); what cannot run in linear time (backreferences, lookaround, atomic groups,
 * conditionals) is refused with a clear error.
 */

export type CharTest = (char: string) => boolean;

export type RegexNode =
  | { kind: 'char'; test: CharTest }
  | { kind: 'sequence'; items: RegexNode[] }
  | { kind: 'alternation'; options: RegexNode[] }
  | { kind: 'group'; index: number | null; body: RegexNode }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number; lazy: boolean }
  | { kind: 'assert'; assertion: Assertion };

export type Assertion = 'line_start' | 'line_end' | 'text_start' | 'text_end' | 'python_end' | 'word_boundary' | 'not_word_boundary';

interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
}

export interface ParsedRegex {
  root: RegexNode;
  groupCount: number;
  groupNames: Map<string, number>;
}

/** Repetition counts past this are refused: they would compile to a program too large to run. */
export const MAX_REPEAT = 1000;

const WORD = /[\p{L}\p{N}_]/u;
const DIGIT = /\p{Nd}/u;
const SPACE = new RegExp(`[${PY_WHITESPACE}]`);

export const isWordChar: CharTest = (char) => WORD.test(char);

function refuse(reason: string): never {
  throw new RenderError(`the regular expression is refused: ${reason}`);
}

function invalid(reason: string): never {
  throw new RenderError(`the regular expression is not valid: ${reason}`);
}

function caseless(test: CharTest, flags: Flags): CharTest {
  if (!flags.ignoreCase) return test;
  return (char) => test(char) || test(char.toLowerCase()) || test(char.toUpperCase());
}

export function parseRegex(pattern: string): ParsedRegex {
  return new RegexParser([...pattern]).parse();
}

class RegexParser {
  private position = 0;
  private groupCount = 0;
  private readonly groupNames = new Map<string, number>();
  private flags: Flags = { ignoreCase: false, multiline: false, dotAll: false };

  constructor(private readonly chars: string[]) {}

  parse(): ParsedRegex {
    this.readGlobalFlags();
    const root = this.parseAlternation();
    if (this.position < this.chars.length) invalid('unbalanced parenthesis');
    return { root, groupCount: this.groupCount, groupNames: this.groupNames };
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.position + offset];
  }

  private startsWith(text: string): boolean {
    return [...text].every((char, index) => this.chars[this.position + index] === char);
  }

  /** `(?ims)` at the very start applies to the whole pattern (Python 3.11 allows it nowhere else). */
  private readGlobalFlags(): void {
    while (this.startsWith('(?') && /^[aiLmsux]+\)/.test(this.chars.slice(this.position + 2, this.position + 12).join(''))) {
      this.position += 2;
      while (this.peek() !== ')') this.applyFlag(this.chars[this.position++]!, true);
      this.position++;
    }
  }

  private applyFlag(flag: string, on: boolean): void {
    if (flag === 'i') this.flags = { ...this.flags, ignoreCase: on };
    else if (flag === 'm') this.flags = { ...this.flags, multiline: on };
    else if (flag === 's') this.flags = { ...this.flags, dotAll: on };
    else if (flag === 'x') refuse('verbose patterns (?x) are not supported');
    else if (flag === 'L') refuse('locale patterns (?L) are not supported');
    else if (flag !== 'a' && flag !== 'u') invalid(`unknown flag ${flag}`);
  }

  private parseAlternation(): RegexNode {
    const options = [this.parseSequence()];
    while (this.peek() === '|') {
      this.position++;
      options.push(this.parseSequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alternation', options };
  }

  private parseSequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.position < this.chars.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.parseAtom();
      if (atom) items.push(this.parseQuantifier(atom));
    }
    return items.length === 1 ? items[0]! : { kind: 'sequence', items };
  }

  /** `*`, `+`, `?`, `{m}`, `{m,}`, `{,n}`, `{m,n}`, each optionally lazy (`?`); a `{` that is no count is literal. */
  private readQuantifier(): { min: number; max: number; length: number } | null {
    const char = this.peek();
    if (char === '*') return { min: 0, max: Number.POSITIVE_INFINITY, length: 1 };
    if (char === '+') return { min: 1, max: Number.POSITIVE_INFINITY, length: 1 };
    if (char === '?') return { min: 0, max: 1, length: 1 };
    if (char !== '{') return null;
    const braces = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.chars.slice(this.position, this.position + 24).join(''));
    if (!braces || (braces[1] === '' && braces[2] === undefined)) return null;
    const min = braces[1] === '' ? 0 : Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3]);
    return { min, max, length: braces[0].length };
  }

  private parseQuantifier(atom: RegexNode): RegexNode {
    const quantifier = this.readQuantifier();
    if (!quantifier) return atom;
    this.position += quantifier.length;
    const { min, max } = quantifier;
    if (max < min) invalid('min repeat greater than max repeat');
    if (min > MAX_REPEAT || (Number.isFinite(max) && max > MAX_REPEAT)) refuse(`repetition counts above ${MAX_REPEAT} are not supported`);
    if (atom.kind === 'assert') invalid('nothing to repeat');
    let lazy = false;
    if (this.peek() === '?') {
      lazy = true;
      this.position++;
    } else if (this.peek() === '+') {
      refuse('possessive quantifiers are not supported');
    }
    if (this.readQuantifier()) invalid('multiple repeat');
    return { kind: 'repeat', body: atom, min, max, lazy };
  }

  private parseAtom(): RegexNode | null {
    const char = this.chars[this.position++]!;
    const flags = this.flags;
    switch (char) {
      case '(':
        return this.parseGroup();
      case '[':
        return { kind: 'char', test: caseless(this.parseClass(), flags) };
      case '.':
        return { kind: 'char', test: flags.dotAll ? () => true : (c) => c !== '\n' };
      case '^':
        return { kind: 'assert', assertion: flags.multiline ? 'line_start' : 'text_start' };
      case '$':
        return { kind: 'assert', assertion: flags.multiline ? 'line_end' : 'python_end' };
      case '*':
      case '+':
      case '?':
        return invalid('nothing to repeat');
      case '\\':
        return this.parseEscape();
      default:
        return { kind: 'char', test: caseless((c) => c === char, flags) };
    }
  }

  private parseGroup(): RegexNode | null {
    if (this.peek() !== '?') return this.capturingGroup(null);
    this.position++;
    const next = this.peek();
    if (next === ':') {
      this.position++;
      return this.groupBody(null);
    }
    if (next === 'P' && this.peek(1) === '<') {
      this.position += 2;
      const end = this.chars.indexOf('>', this.position);
      if (end === -1) invalid('missing > in a group name');
      const name = this.chars.slice(this.position, end).join('');
      if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) invalid('bad character in a group name');
      if (this.groupNames.has(name)) invalid('redefinition of a group name');
      this.position = end + 1;
      return this.capturingGroup(name);
    }
    if (next === 'P' && this.peek(1) === '=') refuse('backreferences are not allowed');
    if (next === '#') {
      const end = this.chars.indexOf(')', this.position);
      if (end === -1) invalid('missing ), unterminated comment');
      this.position = end + 1;
      return null;
    }
    if (next === '=' || next === '!' || (next === '<' && (this.peek(1) === '=' || this.peek(1) === '!'))) refuse('lookahead and lookbehind are not supported');
    if (next === '>' || next === '(') refuse('atomic groups and conditionals are not supported');
    // Scoped flags: (?i:...), (?-i:...), (?s-i:...).
    const scoped = /^([aiLmsux]*)(?:-([imsx]+))?:/.exec(this.chars.slice(this.position, this.position + 16).join(''));
    if (scoped && (scoped[1] || scoped[2])) {
      this.position += scoped[0].length;
      const saved = this.flags;
      for (const flag of scoped[1] ?? '') this.applyFlag(flag, true);
      for (const flag of scoped[2] ?? '') this.applyFlag(flag, false);
      try {
        return this.groupBody(null);
      } finally {
        this.flags = saved;
      }
    }
    if (/^[aiLmsux]+\)/.test(this.chars.slice(this.position, this.position + 12).join(''))) invalid('global flags not at the start of the expression');
    return invalid('unknown extension');
  }

  private capturingGroup(name: string | null): RegexNode {
    const index = ++this.groupCount;
    if (name !== null) this.groupNames.set(name, index);
    return this.groupBody(index);
  }

  private groupBody(index: number | null): RegexNode {
    const body = this.parseAlternation();
    if (this.peek() !== ')') invalid('missing ), unterminated subpattern');
    this.position++;
    return { kind: 'group', index, body };
  }

  /** The character an escape stands for (`\n`, `\x41`, `\.`), or null when it is a class or an assertion. */
  private escapedCharacter(char: string, inClass: boolean): string | null {
    const simple: Record<string, string> = { a: '\x07', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    if (simple[char] !== undefined) return simple[char]!;
    if (char === 'b' && inClass) return '\b';
    if (char === 'x' || char === 'u' || char === 'U') {
      const width = char === 'x' ? 2 : char === 'u' ? 4 : 8;
      const hex = this.chars.slice(this.position, this.position + width).join('');
      if (hex.length !== width || !/^[\da-fA-F]+$/.test(hex)) invalid(`incomplete escape \\${char}`);
      this.position += width;
      return String.fromCodePoint(Number.parseInt(hex, 16));
    }
    if (char === '0') {
      let octal = '0';
      while (octal.length < 3 && /[0-7]/.test(this.peek() ?? '')) octal += this.chars[this.position++];
      return String.fromCodePoint(Number.parseInt(octal, 8));
    }
    if (char === 'N') refuse('named characters \\N{...} are not supported');
    if (/[1-9]/.test(char)) return inClass ? invalid('bad escape in a class') : refuse('backreferences are not allowed');
    if (/[A-Za-z]/.test(char)) return null;
    return char;
  }

  /** A class escape (`\d`, `\w`, `\s` and their negations), or null. */
  private static classEscape(char: string): CharTest | null {
    switch (char) {
      case 'd':
        return (c) => DIGIT.test(c);
      case 'D':
        return (c) => !DIGIT.test(c);
      case 'w':
        return isWordChar;
      case 'W':
        return (c) => !isWordChar(c);
      case 's':
        return (c) => SPACE.test(c);
      case 'S':
        return (c) => !SPACE.test(c);
      default:
        return null;
    }
  }

  private parseEscape(): RegexNode {
    const char = this.chars[this.position++];
    if (char === undefined) return invalid('bad escape (end of pattern)');
    const assertions: Record<string, Assertion> = { b: 'word_boundary', B: 'not_word_boundary', A: 'text_start', Z: 'text_end' };
    if (assertions[char]) return { kind: 'assert', assertion: assertions[char]! };
    const classTest = RegexParser.classEscape(char);
    if (classTest) return { kind: 'char', test: classTest };
    const literal = this.escapedCharacter(char, false);
    if (literal === null) return invalid(`bad escape \\${char}`);
    return { kind: 'char', test: caseless((c) => c === literal, this.flags) };
  }

  /** A class after its `[`: ranges, escapes, negation; a `]` right after `[` or `[^` is literal. */
  private parseClass(): CharTest {
    const negated = this.peek() === '^';
    if (negated) this.position++;
    const tests: CharTest[] = [];
    // One member: a character (which may start a range) or a class escape.
    const member = (): string | CharTest => {
      const char = this.chars[this.position++];
      if (char === undefined) return invalid('unterminated character set');
      if (char !== '\\') return char;
      const escaped = this.chars[this.position++];
      if (escaped === undefined) return invalid('unterminated character set');
      const classTest = RegexParser.classEscape(escaped);
      if (classTest) return classTest;
      const literal = this.escapedCharacter(escaped, true);
      return literal ?? invalid(`bad escape \\${escaped}`);
    };
    let first = true;
    for (;;) {
      if (this.position >= this.chars.length) invalid('unterminated character set');
      if (this.peek() === ']' && !first) {
        this.position++;
        break;
      }
      first = false;
      const low = member();
      if (typeof low === 'string' && this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.position++;
        const high = member();
        if (typeof high !== 'string') return invalid('bad character range');
        const from = low.codePointAt(0)!;
        const to = high.codePointAt(0)!;
        if (to < from) invalid('bad character range');
        tests.push((c) => {
          const code = c.codePointAt(0)!;
          return code >= from && code <= to;
        });
      } else {
        tests.push(typeof low === 'string' ? (c) => c === low : low);
      }
    }
    return negated ? (c) => !tests.some((test) => test(c)) : (c) => tests.some((test) => test(c));
  }
}
