import { RenderError } from './errors.ts';

/**
 * Python `re` patterns (the CDK's regex_search / regex_replace) run on JavaScript's engine. The
 * syntax is translated (`(?P<name>`, `\A`, `\Z`, Python's `$`, leading inline flags), and patterns
 * that can backtrack exponentially are refused: backreferences and a repeated group that itself
 * repeats (`(a+)+`). Subjects are capped, which bounds what polynomial backtracking remains.
 */

export const MAX_PATTERN_LENGTH = 1000;
export const MAX_SUBJECT_LENGTH = 100_000;

const cache = new Map<string, RegExp>();

export function compilePythonRegex(pattern: string, global = false): RegExp {
  const key = `${global ? 'g' : ''}:${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new RenderError(`the regular expression is longer than ${MAX_PATTERN_LENGTH} characters`);
  const { source, flags } = translate(pattern);
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags + (global ? 'g' : ''));
  } catch {
    throw new RenderError('the regular expression is not valid');
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, regex);
  return regex;
}

export function checkSubject(subject: string): void {
  if (subject.length > MAX_SUBJECT_LENGTH) throw new RenderError(`regular expressions run on at most ${MAX_SUBJECT_LENGTH} characters`);
}

function refuse(reason: string): never {
  throw new RenderError(`the regular expression is refused: ${reason}`);
}

function translate(pattern: string): { source: string; flags: string } {
  let flags = '';
  let multiline = false;
  let rest = pattern;
  const leading = /^\(\?([aiLmsux]+)\)/.exec(rest);
  if (leading) {
    for (const flag of leading[1]!) {
      if (flag === 'i' || flag === 's') flags += flags.includes(flag) ? '' : flag;
      else if (flag === 'm') multiline = true;
      else if (flag === 'x' || flag === 'L') refuse(`the inline flag (?${flag}) is not supported`);
    }
    rest = rest.slice(leading[0].length);
  }
  if (multiline) flags += 'm';

  let out = '';
  // One entry per open group: does it contain a repetition?
  const groups: boolean[] = [];
  let repeatsInside = false;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (char === '\\') {
      const next = rest[i + 1];
      if (next === undefined) refuse('it ends with a backslash');
      if (/[1-9]/.test(next)) refuse('backreferences are not allowed');
      if (next === 'A') out += '^';
      else if (next === 'Z') out += '$';
      else if (next === 'k') refuse('backreferences are not allowed');
      else out += `\\${next}`;
      i++;
      continue;
    }
    if (char === '[') {
      const end = classEnd(rest, i);
      let body = rest.slice(i + 1, end);
      const negated = body.startsWith('^');
      if (negated) body = body.slice(1);
      if (body.startsWith(']')) body = `\\]${body.slice(1)}`;
      out += `[${negated ? '^' : ''}${body}]`;
      i = end;
      continue;
    }
    if (char === '(') {
      if (rest.startsWith('(?P<', i)) {
        out += '(?<';
        i += 3;
      } else if (rest.startsWith('(?P=', i)) refuse('backreferences are not allowed');
      else if (rest.startsWith('(?#', i)) {
        const close = rest.indexOf(')', i);
        if (close === -1) refuse('an unterminated comment');
        i = close;
        continue;
      } else if (rest.startsWith('(?>', i) || rest.startsWith('(?(', i)) refuse('atomic groups and conditionals are not supported');
      else if (/^\(\?[aiLmsux-]+:/.test(rest.slice(i))) refuse('scoped inline flags are not supported');
      else out += '(';
      groups.push(repeatsInside);
      repeatsInside = false;
      continue;
    }
    if (char === ')') {
      out += ')';
      const inner: boolean = repeatsInside;
      repeatsInside = groups.pop() ?? false;
      const quantifier = quantifierAt(rest, i + 1);
      if (quantifier) {
        if (inner && quantifier.unbounded) refuse('a repeated group that itself repeats can take exponential time');
        repeatsInside = true;
      }
      repeatsInside ||= inner;
      continue;
    }
    if (char === '$') {
      out += multiline ? '$' : '(?=\\n?$)';
      continue;
    }
    if (char === '*' || char === '+' || char === '{') {
      const quantifier = quantifierAt(rest, i);
      if (quantifier) {
        if (rest[i + quantifier.length] === '+') refuse('possessive quantifiers are not supported');
        repeatsInside = true;
      }
    }
    out += char;
  }
  return { source: out, flags };
}

/** Index of the `]` that closes the class opened at `start` (a `]` first in the class is literal). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return refuse('an unterminated character set');
}

function quantifierAt(pattern: string, index: number): { unbounded: boolean; length: number } | null {
  const char = pattern[index];
  if (char === '*' || char === '+') return { unbounded: true, length: 1 };
  if (char === '?') return { unbounded: false, length: 1 };
  if (char === '{') {
    const match = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(index));
    if (!match || (match[1] === '' && match[3] === '' && match[2] === '')) return null;
    const upper = match[2] === '' ? Number(match[1]) : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
    return { unbounded: upper > 1, length: match[0].length };
  }
  return null;
}

/** Python's replacement template (`\1`, `\g<name>`, `\g<1>`, `\n`, `\\`) applied to one match. */
export function expandReplacement(template: string, match: RegExpExecArray): string {
  return template.replace(/\\(g<([^>]*)>|\d{1,2}|[\s\S])/g, (_, sequence: string, groupName: string | undefined) => {
    if (groupName !== undefined) {
      const group = /^\d+$/.test(groupName) ? match[Number(groupName)] : match.groups?.[groupName];
      if (group === undefined && !(/^\d+$/.test(groupName) && Number(groupName) < match.length) && !(match.groups && groupName in match.groups)) {
        throw new RenderError(`unknown group name in the replacement`);
      }
      return group ?? '';
    }
    if (/^\d+$/.test(sequence)) {
      const index = Number(sequence);
      if (index >= match.length) throw new RenderError('invalid group reference in the replacement');
      return match[index] ?? '';
    }
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
    if (simple[sequence] !== undefined) return simple[sequence]!;
    if (/[a-zA-Z]/.test(sequence)) throw new RenderError(`bad sequence \\${sequence} in the replacement`);
    return `\\${sequence}`;
  });
}
