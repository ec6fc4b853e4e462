/**
 * Words as the text indexes and text operators see them: letters and digits, lower case, accents
 * removed; anything else separates words. Both backends index these words as they are, so SQLite and
 * PostgreSQL agree on what a word is.
 */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The distinct words of a text operator's value, in order. */
export function queryWords(text: string): string[] {
  return [...new Set(wordsOf(text))];
}

/**
 * Every word one edit away from `word` (one character deleted, inserted or replaced, or two
 * neighbours swapped), over `alphabet`: the characters the indexed words use.
 */
export function oneEditVariants(word: string, alphabet: Iterable<string>): string[] {
  const chars = [...word];
  const letters = [...new Set([...alphabet, ...chars])];
  const variants = new Set<string>();
  for (let i = 0; i <= chars.length; i++) {
    const head = chars.slice(0, i).join('');
    const tail = chars.slice(i).join('');
    const rest = chars.slice(i + 1).join('');
    if (i < chars.length) {
      variants.add(head + rest);
      for (const letter of letters) variants.add(head + letter + rest);
    }
    if (i + 1 < chars.length) variants.add(head + chars[i + 1] + chars[i] + chars.slice(i + 2).join(''));
    for (const letter of letters) variants.add(head + letter + tail);
  }
  variants.delete(word);
  variants.delete('');
  return [...variants];
}

/** Whether `a` and `b` are at most one edit apart (as oneEditVariants counts edits). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const same = (p: string[], q: string[]) => p.length === q.length && p.every((c, k) => c === q[k]);
  if (x.length === y.length) {
    if (same(x.slice(i + 1), y.slice(i + 1))) return true;
    return x[i] === y[i + 1] && x[i + 1] === y[i] && same(x.slice(i + 2), y.slice(i + 2));
  }
  return x.length > y.length ? same(x.slice(i + 1), y.slice(i)) : same(x.slice(i), y.slice(i + 1));
}

/** Characters of a text's words, for the alphabet fuzzy search expands over. */
export function charactersOf(words: string[], into: Set<string>): void {
  for (const word of words) for (const char of word) into.add(char);
}
