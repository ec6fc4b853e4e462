import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { expectNowhereInClear, publicAccessToken } from './helpers/public-api-calls.ts';
import { testDestination, type TestDestination } from './helpers/sync-destinations.ts';
import { DeclarativeTable } from '../core/hosted/cloud-api/declarative-table.ts';

/**
 * Secrets stay with the endpoint they were entered for: a destination's new host, port or database,
 * or a declarative definition's new base URL or auth, takes the secrets given again. Before that, an
 * update is a 400 `secret_required` naming the fields, and a source's check and syncs refuse to run:
 * the new endpoint never sees the old secret.
 */

const MASK = '**********';
const PG_PASSWORD = 'pg-password-5be1c9';
const NEW_HOST_TOKEN = 'xoxb-new-host-token-0d4e';
const EXAMPLE = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');

type Body = Record<string, any>;

describe.each(BACKENDS)('secrets bound to their endpoint on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  let workspaceId: string;
  /** Another upstream, as a definition update may name: it must never receive the first one's token. */
  let newHost: SlackSandbox;
  const answers: string[] = [];
  const destinations: TestDestination[] = [];

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    newHost = await SlackSandbox.start({ token: NEW_HOST_TOKEN, users: 3, channels: 1, messagesPerChannel: 1 });
    token = await publicAccessToken(fx);
    workspaceId = (await api('post', 'workspaces', { name: 'secret-binding-ws' })).body.workspaceId;
  });
  afterAll(async () => {
    await fx?.close();
    await newHost?.close();
    for (const destination of destinations) await destination.drop();
  });

  async function api(method: 'get' | 'post' | 'patch' | 'put', path: string, json?: unknown): Promise<{ status: number; body: Body }> {
    const response = await fx.http(path.startsWith('api/') ? path : `v1/${path}`, {
      method: method.toUpperCase() as 'GET',
      headers: bearer(token),
      ...(json === undefined ? {} : { json }),
    });
    answers.push(response.body);
    return { status: response.statusCode, body: response.body === '' ? {} : (JSON.parse(response.body) as Body) };
  }

  const issueLocs = (body: Body) => (body.issues as Array<{ loc: unknown[] }>).map((issue) => issue.loc.join('.'));

  async function settled(jobId: number): Promise<Body> {
    for (;;) {
      const { body } = await api('get', `jobs/${jobId}`);
      if (['succeeded', 'failed', 'cancelled'].includes(body.status)) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function expectSecretsNowhere(): void {
    const text = answers.join('\n');
    for (const secret of [PG_PASSWORD, CHAT_TOKEN, NEW_HOST_TOKEN]) expect(text.includes(secret), secret).toBe(false);
    expect(text).not.toMatch(/secret_?endpoint/i);
  }

  it.runIf(process.env.TEST_DATABASE_URL)('an edited PostgreSQL host, port or database without its password is a 400 secret_required', async () => {
    const destination = await testDestination('postgres', workspaceDataDir(fx.dataDir, workspaceId));
    destinations.push(destination);
    // The test server trusts local connections: the password is stored and masked, never needed.
    const configuration = { ...destination.configuration, password: PG_PASSWORD };
    const made = await api('post', 'destinations', { name: 'warehouse', workspaceId, configuration });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.destinationId as string;
    expect(made.body.configuration.password).toBe(MASK);

    const moved = await api('patch', `destinations/${id}`, { configuration: { host: 'localhost' } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ type: 'urn:plugboard:error:secret_required', status: 400 });
    expect(issueLocs(moved.body)).toEqual(['body.configuration.password']);
    expect(moved.body.detail).toContain('host changed');
    // A PUT writing the masked password back with another database and port is the same.
    const put = await api('put', `destinations/${id}`, { name: 'warehouse', configuration: { ...made.body.configuration, database: 'other', port: 5433 } });
    expect(put.status).toBe(400);
    expect(put.body.type).toBe('urn:plugboard:error:secret_required');
    expect(put.body.detail).toContain('database, port changed');

    // Anything else keeps the stored password; the host given with the password is taken.
    expect((await api('patch', `destinations/${id}`, { name: 'warehouse 2', configuration: { ssl_mode: { mode: 'disable' } } })).status).toBe(200);
    // Another ssl_mode is another endpoint: the password would otherwise follow a downgrade to cleartext.
    const otherSsl = await api('patch', `destinations/${id}`, { configuration: { ssl_mode: { mode: 'require' } } });
    expect([otherSsl.status, otherSsl.body.detail]).toEqual([400, expect.stringContaining('ssl_mode changed')]);
    const rebound = await api('patch', `destinations/${id}`, { configuration: { host: 'localhost', password: PG_PASSWORD } });
    expect(rebound.status, JSON.stringify(rebound.body)).toBe(200);
    expect(rebound.body.configuration).toMatchObject({ host: 'localhost', password: MASK });
    expect((await api('patch', `destinations/${id}`, { configuration: { schema: 'public' } })).status).toBe(200);
    expectSecretsNowhere();
    await expectNowhereInClear(fx, [PG_PASSWORD]);
  });

  describe('a declarative source whose definition moves to another base URL', () => {
    let definitionId: string;
    let sourceId: string;
    let connectionId: string;
    const manifest = (baseUrl: string, extra: Body = {}) => ({
      ...(parse(EXAMPLE.replace('type: team-members', 'type: bound-members')) as Body),
      defaultBaseUrl: baseUrl,
      ...extra,
    });
    const definition = () => `workspaces/${workspaceId}/definitions/declarative_sources/${definitionId}`;
    const check = () => api('post', 'api/v1/sources/check_connection', { sourceId });

    beforeAll(async () => {
      const published = await api('post', `workspaces/${workspaceId}/definitions/declarative_sources`, {
        name: 'members',
        workspaceId,
        manifest: manifest(fx.chatSandbox.url),
      });
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      definitionId = published.body.id;
      const source = await api('post', 'sources', { name: 'members', workspaceId, definitionId, configuration: { credentials: { token: CHAT_TOKEN } } });
      expect(source.status, JSON.stringify(source.body)).toBe(200);
      sourceId = source.body.sourceId;
      const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
      const sqlite = await api('post', 'destinations', { name: 'tables', workspaceId, configuration: destination.configuration });
      const connection = await api('post', 'connections', { sourceId, destinationId: sqlite.body.destinationId });
      expect(connection.status, JSON.stringify(connection.body)).toBe(200);
      connectionId = connection.body.connectionId;
    });

    it('keeps running on an update that leaves the base URL and auth as they were', async () => {
      expect((await api('put', definition(), { manifest: manifest(fx.chatSandbox.url, { displayName: 'Members, renamed' }) })).status).toBe(200);
      expect((await check()).body.status).toBe('succeeded');
    });

    it('refuses to send the stored token to the new base URL: checks, syncs and updates without it are secret_required', async () => {
      expect((await api('put', definition(), { manifest: manifest(newHost.url) })).status).toBe(200);

      const checked = await check();
      expect(checked.status).toBe(400);
      expect(checked.body.error_code).toBe('secret_required');
      // The config API's KnownExceptionInfo shape, with this server's fields beside it.
      expect(checked.body.message).toContain('enter them again');
      expect(checked.body.detail).toContain('configuration.credentials.token');
      expect(checked.body.detail).toContain('manifest.defaultBaseUrl changed');

      const job = await api('post', 'jobs', { connectionId, jobType: 'sync' });
      expect(job.status).toBe(200);
      const failed = await settled(job.body.jobId);
      expect(failed.status).toBe('failed');
      const attempts = await api('post', 'api/v1/jobs/get', { id: failed.jobId });
      expect(JSON.stringify(attempts.body.attempts)).toContain('secret_required');

      const patched = await api('patch', `sources/${sourceId}`, { configuration: { credentials: { token: MASK } } });
      expect(patched.status).toBe(400);
      expect(patched.body.type).toBe('urn:plugboard:error:secret_required');
      expect(issueLocs(patched.body)).toEqual(['body.configuration.credentials.token']);
      expect(patched.body.detail).toContain('manifest.defaultBaseUrl changed');
      const put = await api('put', `sources/${sourceId}`, {
        name: 'members',
        configuration: { sourceType: `declarative-${definitionId}`, credentials: { token: MASK } },
      });
      expect(put.status).toBe(400);
      expect(put.body.type).toBe('urn:plugboard:error:secret_required');
      // Nothing reached the new host: not the check, not the sync, not the updates.
      expect(newHost.requests).toEqual([]);
    });

    it('rebinds when the token is given again, and runs against the new base URL', async () => {
      const renamed = await api('patch', `sources/${sourceId}`, { name: 'members (moved)' });
      expect(renamed.status).toBe(200);
      const rebound = await api('patch', `sources/${sourceId}`, { configuration: { credentials: { token: NEW_HOST_TOKEN } } });
      expect(rebound.status, JSON.stringify(rebound.body)).toBe(200);
      expect(rebound.body.configuration.credentials).toEqual({ token: MASK });
      expect((await check()).body.status).toBe('succeeded');
      const job = await api('post', 'jobs', { connectionId, jobType: 'sync' });
      expect((await settled(job.body.jobId)).status).toBe('succeeded');
      expect(newHost.requests.length).toBeGreaterThan(0);
      expectSecretsNowhere();
    });

    it('binds a source stored before endpoints were recorded to the base URL its definition had when it changes', async () => {
      await fx.server.hosted.cloudDb.run('UPDATE cloud_sources SET secret_endpoint = NULL WHERE id = ?', [sourceId]);
      expect((await check()).body.status).toBe('succeeded');
      expect((await api('put', definition(), { manifest: manifest(fx.chatSandbox.url) })).status).toBe(200);
      const checked = await check();
      expect(checked.status).toBe(400);
      expect(checked.body.error_code).toBe('secret_required');
      expectSecretsNowhere();
    });

    it('binds such a source at start to the base URL its definition names then, so a later change finds it bound', async () => {
      await fx.server.hosted.cloudDb.run('UPDATE cloud_sources SET secret_endpoint = NULL WHERE id = ?', [sourceId]);
      await new DeclarativeTable(fx.server.hosted.cloudDb).bindUnboundSources();
      const row = await fx.server.hosted.cloudDb.get<{ secret_endpoint: string | null }>('SELECT secret_endpoint FROM cloud_sources WHERE id = ?', [sourceId]);
      expect(JSON.parse(row!.secret_endpoint!)).toMatchObject({ 'manifest.defaultBaseUrl': fx.chatSandbox.url });
    });
  });
});
