/** Python's `str.isspace()` characters: JavaScript's `\s` plus the information separators and NEL. */
export const PY_WHITESPACE = '\\s\\x1c-\\x1f\\x85';
