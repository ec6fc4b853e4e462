import { describe, expect, it } from 'vitest';
import { pathSegmentProblem, unsafeTextProblem } from './unsafe-text.ts';

describe('unsafeTextProblem', () => {
  it('passes any well-formed text without NUL, astral characters and controls included', () => {
    for (const text of ['', 'plain', 'émoji 😀', 'tab\there', '\u0001', '\uFFFD']) expect(unsafeTextProblem(text)).toBeNull();
  });

  it('refuses NUL, which PostgreSQL text cannot hold', () => {
    expect(unsafeTextProblem('a\u0000b')).toEqual({ msg: 'NUL characters (U+0000) are not allowed', type: 'value_error.nul_character' });
  });

  it('refuses a lone surrogate, high or low, which has no UTF-8 form', () => {
    for (const text of ['\uD800', 'x\uDC00', '😀'.slice(0, 1)]) {
      expect(unsafeTextProblem(text)).toMatchObject({ type: 'value_error.lone_surrogate' });
    }
  });
});

describe('pathSegmentProblem', () => {
  it('refuses "." and "..", which URL normalisation would step through', () => {
    expect(pathSegmentProblem('.')).toEqual({ msg: '"." and ".." are not ids', type: 'value_error.dot_segment' });
    expect(pathSegmentProblem('..')?.type).toBe('value_error.dot_segment');
  });

  it('passes ids that merely contain dots or slashes (they are URL-encoded), and refuses unsafe text', () => {
    for (const text of ['...', '.hidden', 'a..b', 'a/b', '%2e%2e']) expect(pathSegmentProblem(text)).toBeNull();
    expect(pathSegmentProblem('\u0000')?.type).toBe('value_error.nul_character');
  });
});
