/**
 * JSON bodies nested deeper than MAX_JSON_DEPTH are a 400 `body_too_deep`, found by a scan of the
 * text before it is parsed; at the limit they go on as before. Brackets inside strings don't count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../server/json-depth.ts';
import { startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { sendRaw } from './helpers/raw-http.ts';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets in strings or after escaped quotes', () => {
    expect(nestsDeeperThan(arrays(3), 3)).toBe(false);
    expect(nestsDeeperThan(arrays(4), 3)).toBe(true);
    expect(nestsDeeperThan(objects(4), 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":[{"b":[1]}]}`, 4)).toBe(false);
    expect(nestsDeeperThan(`{"a":"[[[[[[{{{{"}`, 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"[[[[\\\\","b":[[1]]}`, 2)).toBe(true);
    expect(nestsDeeperThan(`{"a":"\\"[[[[\\\\","b":[1]}`, 2)).toBe(false);
    // Siblings don't add up: depth is how deep, not how many.
    expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => '[1]').join(',')}]`, 2)).toBe(false);
  });
});

describe('a hosted server', () => {
  let fx: HostedFixture;
  let token: string;

  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
    token = await fx.operatorToken();
  });

  afterAll(async () => {
    await fx?.close();
  });

  const post = (body: string) =>
    sendRaw(fx.server.url, {
      method: 'POST',
      path: '/api/v1/embedded/scoped-token',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from(body),
    });

  it.each([
    ['arrays', arrays],
    ['objects', objects],
  ])('answers a body of %s nested past the limit 400 body_too_deep, before it is parsed', async (_name, nest) => {
    for (const depth of [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 10, 5_000, 10_000]) {
      const answer = await post(`{"workspace_name":${nest(depth)}}`);
      expect(answer.status, `${depth} deep`).toBe(400);
      expect(JSON.parse(answer.body.toString())).toEqual({ detail: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`), error_code: 'body_too_deep' });
    }
  });

  it('takes a body at the limit to validation, and a shallow one as before', async () => {
    const atLimit = await post(`{"workspace_name":${arrays(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(422);
    const fine = await post(JSON.stringify({ workspace_name: 'depth-[[[[' }));
    expect(fine.status).toBe(200);
    expect(await post('{"workspace_name": ')).toMatchObject({ status: 400 });
    expect(JSON.parse((await post('{"__proto__": {"x": 1}}')).body.toString())).toEqual({ detail: 'Malformed JSON body' });
  });
});
