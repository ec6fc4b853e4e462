/**
 * The components test/manifest-read.test.ts leaves out, read against the local REST upstream with a
 * manifest written for them (fixtures/manifests/read-more.yaml): a concurrency level, schemas from the
 * manifest's `schemas` section, an explicit JSON decoder, a cartesian product of routers, typed added
 * fields, a wait until a header's time, and session logins sent as a bearer token or the legacy way.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoadedManifest, loadManifest, manifestSpec } from '../core/manifests/index.ts';
import { type ReadMessage, readStream } from '../core/manifests/read/index.ts';
import { RestUpstream, type RestUpstreamOptions } from '../testing/index.ts';

const loaded: LoadedManifest = loadManifest(readFileSync(new URL('fixtures/manifests/read-more.yaml', import.meta.url), 'utf8'), { name: 'read-more' });
const running: RestUpstream[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((upstream) => upstream.close()));
});

async function start(options: RestUpstreamOptions = {}): Promise<RestUpstream> {
  const upstream = await RestUpstream.start(options);
  running.push(upstream);
  return upstream;
}

async function records(stream: string, config: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const messages: ReadMessage[] = [];
  for await (const message of readStream(loaded, stream, { config })) messages.push(message);
  return messages.flatMap((message) => (message.type === 'record' ? [message.record] : []));
}

const SESSION = { kind: 'session', username: 'ana', password: 'pw-1', header: 'Authorization', scheme: 'Bearer' } as const;

describe('components the other read fixtures leave out', () => {
  it('takes the schema from the `schemas` section, decodes JSON, and adds typed fields', async () => {
    const upstream = await start({ items: 45 });
    const read = await records('items_from_file_schema', { base_url: upstream.url });
    expect(read).toHaveLength(45);
    expect(read[0]).toMatchObject({ id: 1, views_text: '0', source: { name: 'tracker' } });
    expect(read[3]!.views_text).toBe('21');
    const schema = manifestSpec(loaded).streams.find((stream) => stream.name === 'items_from_file_schema')!.schema;
    expect(schema).toMatchObject({ properties: { id: { type: 'integer' }, updated_at: { format: 'date-time' } } });
    // The concurrency level is accepted; streams still read one at a time.
    expect(loaded.source.concurrency_level).toMatchObject({ default_concurrency: 2 });
  });

  it('reads every partition of a cartesian product of routers', async () => {
    const upstream = await start({ projects: 3, tasksPerProject: 2 });
    const read = await records('tasks_by_product', { base_url: upstream.url });
    expect(read).toHaveLength(8);
    const asked = upstream.requests.map((request) => `${request.path}?label=${request.query.label}`);
    expect(asked).toEqual(['/api/projects/1/tasks?label=a', '/api/projects/1/tasks?label=b', '/api/projects/2/tasks?label=a', '/api/projects/2/tasks?label=b']);
  });

  it('waits until the time a header names (at least min_wait), then retries', async () => {
    const upstream = await start({ items: 3 });
    // Epoch second 1 is long past: the wait is min_wait.
    upstream.fail({ path: '/api/items', status: 503, retryAfter: 1 });
    const started = Date.now();
    const read = await records('items_waiting_until', { base_url: upstream.url });
    expect(read).toHaveLength(3);
    expect(upstream.requests.filter((request) => request.path === '/api/items')).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10);
  });

  it('logs in once and sends the session token as a bearer token (short name and full name)', async () => {
    const upstream = await start({ items: 4, auth: SESSION });
    const config = { base_url: upstream.url, username: 'ana', password: 'pw-1' };
    expect(await records('items_bearer_session', config)).toHaveLength(4);
    expect(await records('items_bearer_request_authenticator', config)).toHaveLength(4);
    expect(upstream.requests.filter((request) => request.path === '/api/session').map((request) => request.body)).toEqual([
      { username: 'ana', password: 'pw-1' },
      { username: 'ana', password: 'pw-1' },
    ]);
  });

  it('logs in the legacy way: a login at login_url, its token in the header', async () => {
    const upstream = await start({ items: 4, auth: { kind: 'session', username: 'ana', password: 'pw-1', header: 'X-Session' } });
    expect(await records('items_legacy_session', { base_url: upstream.url, username: 'ana', password: 'pw-1' })).toHaveLength(4);
    expect(upstream.requests.filter((request) => request.path === '/api/session')).toHaveLength(1);
  });
});
