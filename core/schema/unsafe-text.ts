/**
 * Text that cannot be passed on faithfully, wherever it comes from: U+0000, which PostgreSQL text
 * cannot hold, and a lone UTF-16 surrogate, which has no UTF-8 form (encodeURIComponent throws on it,
 * and the PostgreSQL driver silently turns it into U+FFFD, so two distinct names would become one).
 */
export interface TextProblem {
  msg: string;
  type: string;
}

const NUL: TextProblem = { msg: 'NUL characters (U+0000) are not allowed', type: 'value_error.nul_character' };
const LONE_SURROGATE: TextProblem = {
  msg: 'a lone UTF-16 surrogate (half of a character) is not allowed: text must be valid Unicode',
  type: 'value_error.lone_surrogate',
};

export function unsafeTextProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return NUL;
  if (!text.isWellFormed()) return LONE_SURROGATE;
  return null;
}

const DOT_SEGMENT: TextProblem = { msg: '"." and ".." are not ids', type: 'value_error.dot_segment' };

/**
 * Why a value cannot stand as one path segment, or null: besides unsafe text, `.` and `..`, which are
 * not names but steps that URL normalisation applies, so they would reach another path than the one declared.
 */
export function pathSegmentProblem(text: string): TextProblem | null {
  return text === '.' || text === '..' ? DOT_SEGMENT : unsafeTextProblem(text);
}
