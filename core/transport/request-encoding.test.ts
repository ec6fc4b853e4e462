import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import type { UpstreamCall } from '../sdk/index.ts';
import { encodeRequest } from './request-encoding.ts';

const BASE = 'https://api.example.test/v1';

function refusal(call: UpstreamCall, params: Record<string, unknown>): ValidationError {
  try {
    encodeRequest(BASE, call, params);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('encodeRequest accepted the params');
}

describe('encodeRequest', () => {
  it('sends a GET as a query string: defaults first, the caller overriding them, objects as JSON, null and undefined left out', () => {
    const call: UpstreamCall = { method: 'GET', path: '/items', defaults: { fields: '*', limit: 10 } };
    expect(encodeRequest(BASE, call, { limit: 5, filter: { a: 1 }, gone: null, unset: undefined, on: true })).toEqual({
      url: `${BASE}/items`,
      method: 'GET',
      headers: {},
      searchParams: { fields: '*', limit: 5, filter: '{"a":1}', on: true },
    });
  });

  it('fills path placeholders, URL-encoded, and does not send those params again', () => {
    const call: UpstreamCall = { method: 'GET', path: '/files/{fileId}/comments/{commentId}' };
    const encoded = encodeRequest(BASE, call, { fileId: 'a b/c', commentId: 'é', pageSize: 3 });
    expect(encoded.url).toBe(`${BASE}/files/a%20b%2Fc/comments/%C3%A9`);
    expect(encoded.searchParams).toEqual({ pageSize: 3 });
  });

  it('refuses a path param that is a dot segment or cannot be encoded, naming the param', () => {
    const call: UpstreamCall = { method: 'GET', path: '/files/{fileId}' };
    expect(refusal(call, { fileId: '..' }).issues).toEqual([
      { loc: ['body', 'params', 'fileId'], msg: '"." and ".." are not ids', type: 'value_error.dot_segment' },
    ]);
    expect(refusal(call, { fileId: 'a\uD800' }).issues[0]).toMatchObject({ loc: ['body', 'params', 'fileId'], type: 'value_error.lone_surrogate' });
    expect(refusal(call, { fileId: 'a\u0000' }).issues[0]).toMatchObject({ type: 'value_error.nul_character' });
  });

  it('moves header params into headers, whether or not the caller gave them', () => {
    const call: UpstreamCall = { method: 'GET', path: '/files/{id}', headerParams: { Range: 'range_header' } };
    expect(encodeRequest(BASE, call, { id: 'f', range_header: 'bytes=0-99' })).toMatchObject({ headers: { Range: 'bytes=0-99' }, searchParams: {} });
    expect(encodeRequest(BASE, call, { id: 'f' })).toMatchObject({ headers: {}, searchParams: {} });
  });

  it('refuses a byte range whose last position is before its first, which a server would answer with the whole file', () => {
    const call: UpstreamCall = { method: 'GET', path: '/files/{id}', headerParams: { Range: 'range_header' } };
    expect(refusal(call, { id: 'f', range_header: 'bytes=100-99' }).issues).toEqual([
      {
        loc: ['body', 'params', 'range_header'],
        msg: 'the last byte position is before the first (bytes=100-99): give bytes=first-last with last >= first',
        type: 'value_error.range',
      },
    ]);
    // Past 2^53: compared exactly, not as doubles that would call them equal.
    expect(refusal(call, { id: 'f', range_header: 'bytes=9007199254740993-9007199254740992' }).issues[0]?.type).toBe('value_error.range');
    expect(encodeRequest(BASE, call, { id: 'f', range_header: 'bytes=5-5' }).headers).toEqual({ Range: 'bytes=5-5' });
    expect(encodeRequest(BASE, call, { id: 'f', range_header: 'bytes=-500' }).headers).toEqual({ Range: 'bytes=-500' });
  });

  it('sends a POST as JSON by default, objects kept, or as a form of scalars', () => {
    const json: UpstreamCall = { method: 'POST', path: '/chat.postMessage', body: 'json' };
    expect(encodeRequest(BASE, json, { channel: 'C1', blocks: [{ type: 'section' }] })).toEqual({
      url: `${BASE}/chat.postMessage`,
      method: 'POST',
      headers: {},
      json: { channel: 'C1', blocks: [{ type: 'section' }] },
    });
    expect(encodeRequest(BASE, { method: 'POST', path: '/x' }, { a: 1 }).json).toEqual({ a: 1 });
    const form: UpstreamCall = { method: 'POST', path: '/x', body: 'form' };
    expect(encodeRequest(BASE, form, { a: 1, b: { c: 2 }, d: null }).form).toEqual({ a: 1, b: '{"c":2}' });
  });

  it("leaves the caller's params as they were", () => {
    const params = { id: 'f', range_header: 'bytes=0-1', q: 'x' };
    encodeRequest(BASE, { method: 'GET', path: '/files/{id}', headerParams: { Range: 'range_header' } }, params);
    expect(params).toEqual({ id: 'f', range_header: 'bytes=0-1', q: 'x' });
  });
});
