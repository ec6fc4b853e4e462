/**
 * The REST upstream that declarative-manifest tests and the manifest benchmark read: each pagination
 * style gives every record once, date windows select what they say, tasks belong to their project,
 * and each auth kind refuses a call without its credential.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EPOCH_MS, RestUpstream, type RestUpstreamOptions } from '../testing/index.ts';

const running: RestUpstream[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((upstream) => upstream.close()));
});

async function start(options: RestUpstreamOptions = {}) {
  const upstream = await RestUpstream.start(options);
  running.push(upstream);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${upstream.url}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return { upstream, get };
}

describe('RestUpstream', () => {
  it('serves every item once by page number, offset and cursor alike', async () => {
    const { get } = await start({ items: 250 });
    const ids = { page: [] as number[], offset: [] as number[], cursor: [] as number[] };
    for (let page = 1; ; page++) {
      const { body } = await get(`/api/items?page=${page}&per_page=100`);
      ids.page.push(...body.data.map((item: { id: number }) => item.id));
      if (body.data.length < 100) break;
    }
    for (let offset = 0; ; offset += 100) {
      const { body } = await get(`/api/items?offset=${offset}&limit=100`);
      ids.offset.push(...body.data.map((item: { id: number }) => item.id));
      if (body.data.length < 100) break;
    }
    let cursor: string | null = '';
    while (cursor !== null) {
      const { body }: { body: Record<string, any> } = await get(`/api/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      ids.cursor.push(...body.data.map((item: { id: number }) => item.id));
      cursor = body.next_cursor;
    }
    const all = Array.from({ length: 250 }, (_, i) => i + 1);
    expect(ids).toEqual({ page: all, offset: all, cursor: all });
  });

  it('selects items by their update time, oldest first, and serves one by id', async () => {
    const { get } = await start({ items: 1000 });
    const after = new Date(EPOCH_MS + 10 * 60_000).toISOString();
    const before = new Date(EPOCH_MS + 20 * 60_000).toISOString();
    const { body } = await get(`/api/items?updated_after=${after}&updated_before=${before}`);
    expect(body.data.map((item: { id: number }) => item.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect((await get('/api/items/42')).body.data).toMatchObject({ id: 42, name: 'item 42' });
    expect((await get('/api/items/1001')).status).toBe(404);
  });

  it('lists each project and its tasks (a substream)', async () => {
    const { get } = await start({ projects: 3, tasksPerProject: 4 });
    expect((await get('/api/projects')).body.data.map((project: { id: number }) => project.id)).toEqual([1, 2, 3]);
    const tasks = (await get('/api/projects/2/tasks?per_page=3&page=2')).body.data;
    expect(tasks).toEqual([{ id: '2-4', project_id: 2, title: 'task 4 of project 2', done: false }]);
    expect((await get('/api/projects/9/tasks')).status).toBe(404);
  });

  it('refuses calls without the credential of its auth kind; session and OAuth tokens come from their endpoints', async () => {
    const keyed = await start({ auth: { kind: 'api_key', header: 'X-Api-Key', key: 'k1' } });
    expect((await keyed.get('/api/me')).status).toBe(401);
    expect((await keyed.get('/api/me', { 'x-api-key': 'k1' })).status).toBe(200);

    const basic = await start({ auth: { kind: 'basic', username: 'u', password: 'p' } });
    expect((await basic.get('/api/me', { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` })).status).toBe(200);

    const session = await start({ auth: { kind: 'session', username: 'u', password: 'p', header: 'X-Session' } });
    const login = await fetch(`${session.upstream.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u', password: 'p' }),
    });
    const { token } = (await login.json()) as { token: string };
    expect((await session.get('/api/me', { 'x-session': token })).status).toBe(200);
    expect((await session.get('/api/me', { 'x-session': 'forged' })).status).toBe(401);

    let now = 0;
    const oauth = await start({
      clock: () => now,
      auth: { kind: 'oauth', clientId: 'c', clientSecret: 's', refreshToken: 'r', tokenTtlSeconds: 60 },
    });
    const granted = await fetch(`${oauth.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r', client_id: 'c', client_secret: 's' }),
    });
    const { access_token: access, expires_in: expiresIn } = (await granted.json()) as { access_token: string; expires_in: number };
    expect(expiresIn).toBe(60);
    expect((await oauth.get('/api/me', { authorization: `Bearer ${access}` })).status).toBe(200);
    now += 61_000;
    expect((await oauth.get('/api/me', { authorization: `Bearer ${access}` })).status).toBe(401);
  });

  it('answers injected faults first, with Retry-After, and logs requests', async () => {
    const { upstream, get } = await start();
    upstream.fail({ path: '/api/items', status: 429, retryAfter: 2 });
    const limited = await fetch(`${upstream.url}/api/items`);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await get('/api/items?limit=5')).body.data).toHaveLength(5);
    expect(upstream.requests.map((request) => request.query)).toEqual([{}, { limit: '5' }]);
  });
});
