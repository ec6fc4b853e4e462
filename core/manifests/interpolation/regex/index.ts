import type { Budget } from '../budget.ts';
import { RenderError } from '../errors.ts';
import { compileProgram, type Instruction } from './program.ts';
import { parseRegex } from './syntax.ts';
import { searchProgram } from './matcher.ts';

/**
 * Python regular expressions for the CDK's `regex_search` and `regex_replace`, on a linear-time
 * matcher: no pattern can backtrack, and every step counts against the interpolation's budget.
 */

export const MAX_PATTERN_LENGTH = 1000;

interface CompiledRegex {
  program: Instruction[];
  groupCount: number;
  groupNames: Map<string, number>;
}

export interface RegexMatch {
  start: number;
  end: number;
  /** Group 0 is the whole match; a group that did not take part is undefined. */
  groups: Array<string | undefined>;
  groupNames: Map<string, number>;
}

const cache = new Map<string, CompiledRegex>();

function compileRegex(pattern: string): CompiledRegex {
  const cached = cache.get(pattern);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new RenderError(`the regular expression is longer than ${MAX_PATTERN_LENGTH} characters`);
  const parsed = parseRegex(pattern);
  const compiled = { program: compileProgram(parsed), groupCount: parsed.groupCount, groupNames: parsed.groupNames };
  if (cache.size > 500) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

function matchAt(regex: CompiledRegex, text: readonly string[], from: number, budget: Budget): RegexMatch | null {
  const slots = searchProgram(regex.program, (regex.groupCount + 1) * 2, text, from, budget);
  if (!slots) return null;
  const groups: Array<string | undefined> = [];
  for (let group = 0; group <= regex.groupCount; group++) {
    const start = slots[group * 2];
    const end = slots[group * 2 + 1];
    groups.push(start === undefined || end === undefined ? undefined : text.slice(start, end).join(''));
  }
  return { start: slots[0]!, end: slots[1]!, groups, groupNames: regex.groupNames };
}

/** Python's `re.search`. */
export function regexSearch(pattern: string, subject: string, budget: Budget): RegexMatch | null {
  return matchAt(compileRegex(pattern), [...subject], 0, budget);
}

/** Python's `re.sub` with a replacement template (`\1`, `\g<name>`); an empty match right after a match is allowed, as since Python 3.7. */
export function regexReplace(pattern: string, replacement: string, subject: string, budget: Budget): string {
  const regex = compileRegex(pattern);
  const text = [...subject];
  let out = '';
  let position = 0;
  let copiedUpTo = 0;
  while (position <= text.length) {
    const match = matchAt(regex, text, position, budget);
    if (!match) break;
    out += text.slice(copiedUpTo, match.start).join('') + expandReplacement(replacement, match);
    budget.checkSize(out.length);
    copiedUpTo = match.end;
    position = match.end === match.start ? match.end + 1 : match.end;
    if (match.end === match.start && match.end < text.length) {
      out += text[match.end];
      copiedUpTo = match.end + 1;
    }
  }
  return out + text.slice(copiedUpTo).join('');
}

/** Python's replacement template applied to one match. */
export function expandReplacement(template: string, match: RegexMatch): string {
  return template.replace(/\\(g<([^>]*)>|\d{1,2}|[\s\S])/g, (_, sequence: string, groupName: string | undefined) => {
    if (groupName !== undefined) {
      const index = /^\d+$/.test(groupName) ? Number(groupName) : match.groupNames.get(groupName);
      if (index === undefined || index >= match.groups.length) throw new RenderError('unknown group in the replacement');
      return match.groups[index] ?? '';
    }
    if (/^\d+$/.test(sequence)) {
      const index = Number(sequence);
      if (index >= match.groups.length) throw new RenderError('invalid group reference in the replacement');
      return match.groups[index] ?? '';
    }
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
    if (simple[sequence] !== undefined) return simple[sequence]!;
    if (/[a-zA-Z]/.test(sequence)) throw new RenderError(`bad escape \\${sequence} in the replacement`);
    return `\\${sequence}`;
  });
}
