/**
 * An Airbyte manifest served by the hosted server (PLUGBOARD_CONNECTORS): stored connectors made with
 * the manifest's configuration (sealed, never answered), checked with its check stream, executed,
 * replicated into the context store and searched; tenant URLs in the configuration obey the egress policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import { RestUpstream } from '../testing/index.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

const MANIFEST = './test/fixtures/manifests/source-tracker/manifest.yaml';
const KEY = 'hosted-tracker-key-91';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a manifest connector on the hosted server', () => {
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let token: string;
  let config: Record<string, unknown>;

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 120, projects: 2, tasksPerProject: 4, auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY } });
    fx = await startHostedFixture('sqlite', { config: { connectors: [MANIFEST] } });
    token = await fx.scopedToken('manifest-user');
    config = { base_url: upstream.url, api_key: KEY, start_date: '2024-01-01T00:00:00Z', end_date: '2024-01-01T01:00:00Z' };
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await upstream?.close();
  });

  const create = (body: Record<string, unknown>) =>
    fx.http.post('v1/integrations/connectors', {
      headers: bearer(token),
      json: { external_user_id: `u-${Math.random()}`, connector_type: 'tracker', ...body },
    });
  const execute = (id: string, entity: string, action: string, params: Record<string, unknown> = {}) =>
    fx.http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(token), json: { entity, action, params } });

  it('stores a connector made with the configuration, checked, and answers it without the configuration', async () => {
    const response = await create({ config });
    expect(response.statusCode, response.body).toBe(201);
    const record = JSON.parse(response.body);
    expect(record).toMatchObject({ connector_type: 'tracker', auth_type: 'config', auth_status: 'active' });
    expect(response.body).not.toContain(KEY);
    const listed = await fx.http.get(`v1/integrations/connectors/${record.id}`, { headers: bearer(token) });
    expect(listed.body).not.toContain(KEY);
    expect(fx.logs.join('')).not.toContain(KEY);
  });

  it('refuses a configuration the spec refuses, credentials for it, and a refused key, storing nothing', async () => {
    const invalid = await create({ config: { base_url: upstream.url } });
    expect(invalid.statusCode).toBe(422);
    expect(JSON.parse(invalid.body).detail.map((issue: { loc: string[] }) => issue.loc.join('.'))).toContain('body.config.api_key');
    const credentials = await create({ credentials: { token: 'x' } });
    expect([credentials.statusCode, JSON.parse(credentials.body).detail[0].type]).toEqual([422, 'value_error.config_expected']);
    const refused = await create({ config: { ...config, api_key: 'wrong-key-55' } });
    expect([refused.statusCode, JSON.parse(refused.body).error_code]).toEqual([400, 'credentials_rejected']);
    expect(refused.body).not.toContain('wrong-key-55');
  });

  it('executes list and get, pages by cursor, and answers unknown entities with 422', async () => {
    const { id } = JSON.parse((await create({ config })).body);
    const page = JSON.parse((await execute(id, 'items', 'list', { limit: 50 })).body);
    expect(page.result).toHaveLength(50);
    const next = JSON.parse((await execute(id, 'items', 'list', { limit: 50, cursor: page.connector_metadata.next_cursor })).body);
    expect(next.result[0].id).toBe(51);
    const one = JSON.parse((await execute(id, 'items', 'get', { id: 7 })).body);
    expect(one.result).toMatchObject({ id: 7, name: 'item 7' });
    const tasks = JSON.parse((await execute(id, 'tasks', 'list', { limit: 100 })).body);
    expect(tasks.result).toHaveLength(8);
    const unknown = await execute(id, 'nothing', 'list');
    expect(unknown.statusCode).toBe(422);
  });

  it('replicates the streams into the context store and searches them', async () => {
    const { id } = JSON.parse((await create({ config })).body);
    let state: { status: string; error?: string } = { status: 'pending' };
    for (let i = 0; i < 200 && state.status !== 'ready' && state.status !== 'failed'; i++) {
      await sleep(100);
      state = JSON.parse((await fx.http.get(`api/v1/connectors/sources/${id}/replication`, { headers: bearer(token) })).body);
    }
    expect(state.status, state.error).toBe('ready');
    const hits = JSON.parse((await execute(id, 'items', 'search', { query: { filter: { like: { name: 'item 11' } } } })).body);
    expect(hits.result.hits.map((hit: { id: string }) => hit.id).sort()).toEqual(['11', '110', '111', '112', '113', '114', '115', '116', '117', '118', '119']);
  });
});

describe('a manifest connector under a narrow egress policy', () => {
  it("refuses a configuration whose URL is the server's own loopback, with the egress error", async () => {
    const upstream = await RestUpstream.start({ items: 5 });
    const fx = await startHostedFixture('sqlite', { config: { connectors: [MANIFEST], egress: new EgressPolicy() } });
    try {
      const token = await fx.scopedToken('egress-user');
      const response = await fx.http.post('v1/integrations/connectors', {
        headers: bearer(token),
        json: {
          external_user_id: 'e',
          connector_type: 'tracker',
          config: { base_url: upstream.url, api_key: 'k', start_date: '2024-01-01T00:00:00Z' },
        },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(JSON.parse(response.body).error_code).toBe('egress_refused');
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await fx.close();
      await upstream.close();
    }
  }, 60_000);
});
