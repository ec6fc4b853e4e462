import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../server/json-bytes.ts';

describe('jsonBytes', () => {
  it('is the UTF-8 of the JSON text, for ASCII and for every other kind of character', () => {
    for (const value of [
      { text: 'plain ascii', n: 1, list: [true, null] },
      { name: 'Zoë Ångström', currency: '€', latin1: '\u00ff\u0080' },
      { emoji: '🎉 party', cjk: '開発チーム', lone: '\ud800' },
      'x'.repeat(100_000),
    ]) {
      const bytes = jsonBytes(value);
      expect(bytes.equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(value)));
    }
  });
});
