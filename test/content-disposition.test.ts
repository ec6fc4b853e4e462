/** Content-Disposition both ways: an upstream's header read for its file name, and the header a download is answered with. */
import { describe, expect, it } from 'vitest';
import { contentDisposition, fileNameFromDisposition } from '../core/transport/content-disposition.ts';

describe('fileNameFromDisposition', () => {
  it.each([
    [undefined, null],
    ['attachment', null],
    ['attachment; filename="report.pdf"', 'report.pdf'],
    ['attachment; filename="r.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf', 'résumé.pdf'],
  ])('reads %o as %o', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });

  it.each([
    ['attachment; filename="plain.txt"; filename*=UTF-8\'\'%E0%A4%A', 'plain.txt'],
    ["attachment; filename*=UTF-8''%E0%A4%A; filename=plain.txt", 'plain.txt'],
    ["attachment; filename*=UTF-8''%ZZ", null],
    ["attachment; filename*=UTF-8''%ED%A0%80", null],
  ])('an undecodable filename* in %o falls back to filename (%o)', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII filename and the exact name in filename*, which reads back', () => {
    const header = contentDisposition('résumé "final".pdf');
    expect(header).toBe(`attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`);
    expect(fileNameFromDisposition(header)).toBe('résumé "final".pdf');
  });

  it('a lone surrogate in the name (an upstream may send one) becomes U+FFFD instead of throwing', () => {
    const header = contentDisposition('a\uD800b.txt');
    expect(header).toBe(`attachment; filename="a_b.txt"; filename*=UTF-8''a%EF%BF%BDb.txt`);
    expect(fileNameFromDisposition(header)).toBe('a\uFFFDb.txt');
  });

  it('line breaks cannot split the header', () => {
    expect(contentDisposition('a\r\nSet-Cookie: x')).not.toMatch(/[\r\n]/);
  });
});
