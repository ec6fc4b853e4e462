/**
 * The hosted variant's client against a real server, counted from the server's request log: what it
 * sends on a cold start under concurrency, and how it recovers when what it cached stops fitting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessDeniedError, PlugboardError, UpstreamError } from '../core/errors.ts';
import { errorFromWire } from '../core/hosted-client/wire-errors.ts';
import { createRuntime, type DownloadResult, type ExecuteRequest, type ExecuteResult } from '../index.ts';
import { CHAT_TOKEN, rejectionOf } from './helpers/chat-fixture.ts';
import { startCuttingProxy } from './helpers/cutting-proxy.ts';
import { collect, DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

type Client = { execute(request: ExecuteRequest): Promise<ExecuteResult> };
const USERS: ExecuteRequest = { entity: 'users', action: 'list', params: { limit: 1 } };
const CONNECTORS = '/api/v1/integrations/connectors';

describe('hosted variant client', () => {
  let fx: HostedFixture;
  let runtime: Awaited<ReturnType<typeof createRuntime>>;

  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
    runtime = await createRuntime();
  });
  afterAll(async () => {
    await fx.close();
  });

  const client = (externalUserId: string) =>
    runtime.connector('chat', {
      external_user_id: externalUserId,
      client_id: fx.clientId,
      client_secret: fx.clientSecret,
      server_url: fx.server.url,
    }) as unknown as Client;

  const createConnector = async (externalUserId: string) => (await fx.createConnector(externalUserId, 'chat', { token: CHAT_TOKEN })).id;

  /** The requests the server logged while `work` ran, as "METHOD path status". */
  async function requestsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const before = fx.logs.length;
    await work();
    return fx.logs
      .slice(before)
      .map((line) => JSON.parse(line) as { method?: string; path?: string; status?: number })
      .filter((line) => line.path !== undefined)
      .map((line) => `${line.method} ${line.path!.replace(/sources\/[^/]+\/execute$/, 'sources/{id}/execute')} ${line.status}`);
  }
  const count = (requests: string[], request: string) => requests.filter((r) => r === request).length;

  it('8 concurrent first calls share one operator token, one scoped token and one look-up', async () => {
    await createConnector('cold-user');
    const chat = client('cold-user');
    const requests = await requestsDuring(async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => chat.execute(USERS)));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill('success'));
    });
    expect(count(requests, 'POST /api/v1/account/applications/token 200')).toBe(1);
    expect(count(requests, 'POST /api/v1/embedded/scoped-token 200')).toBe(1);
    expect(count(requests, `GET ${CONNECTORS} 200`)).toBe(1);
    expect(count(requests, 'POST /api/v1/connectors/sources/{id}/execute 200')).toBe(8);
    // The default workspace (named after the user) is looked for before a scoped token could create it.
    expect(count(requests, 'GET /v1/workspaces 200')).toBe(1);
    expect(requests).toHaveLength(12);
  });

  it('an external user without a workspace gets connector_not_found, and no workspace is left behind', async () => {
    const organizationId = fx.server.firstApplication!.organization_id;
    const error = await client('typo-user')
      .execute(USERS)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, error_code: 'connector_not_found' });
    expect((error as { detail: string }).detail).toContain('workspace_name');
    expect(await fx.server.hosted.store.findWorkspaceByName(organizationId, 'typo-user')).toBeNull();
  });

  it('after the connector is deleted and made again, looks it up once more and retries once', async () => {
    const oldId = await createConnector('remade-user');
    const chat = client('remade-user');
    expect((await chat.execute(USERS)).status).toBe('success');
    const deleted = await fx.http.delete(`api/v1/integrations/connectors/${oldId}`, { headers: bearer(await fx.scopedToken('remade-user')) });
    expect(deleted.statusCode).toBe(204);
    await createConnector('remade-user');
    const requests = await requestsDuring(async () => {
      const results = await Promise.all([chat.execute(USERS), chat.execute(USERS)]);
      expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    });
    expect(requests.filter((r) => r.includes('/execute'))).toEqual([
      'POST /api/v1/connectors/sources/{id}/execute 404',
      'POST /api/v1/connectors/sources/{id}/execute 404',
      'POST /api/v1/connectors/sources/{id}/execute 200',
      'POST /api/v1/connectors/sources/{id}/execute 200',
    ]);
    expect(count(requests, `GET ${CONNECTORS} 200`)).toBe(1);
  });

  it('a connector id that now answers 403 (another workspace) is looked up again too', async () => {
    const oldId = await createConnector('moved-user');
    const chat = client('moved-user');
    expect((await chat.execute(USERS)).status).toBe('success');
    // The id the client knows now names a connector of another workspace.
    const scoped = await fx.scopedToken('moved-user');
    expect((await fx.http.delete(`api/v1/integrations/connectors/${oldId}`, { headers: bearer(scoped) })).statusCode).toBe(204);
    await fx.scopedToken('elsewhere');
    const { store, keyring } = fx.server.hosted;
    const elsewhere = await store.findWorkspaceByName(fx.server.firstApplication!.organization_id, 'elsewhere');
    await store.createConnectorIfAbsent({
      id: oldId,
      organization_id: elsewhere!.organization_id,
      workspace_id: elsewhere!.id,
      external_user_id: 'moved-user',
      connector_type: 'chat',
      name: 'elsewhere',
      auth_type: 'token',
      credentials: keyring.encrypt(JSON.stringify({ token: CHAT_TOKEN })),
      replication_config: null,
      source_template_id: null,
      created_at: new Date().toISOString(),
    });
    await createConnector('moved-user');
    const requests = await requestsDuring(async () => expect((await chat.execute(USERS)).status).toBe('success'));
    expect(requests.filter((r) => r.includes('/execute'))).toEqual([
      'POST /api/v1/connectors/sources/{id}/execute 403',
      'POST /api/v1/connectors/sources/{id}/execute 200',
    ]);
    expect(count(requests, `GET ${CONNECTORS} 200`)).toBe(1);
  });

  it('credentials sealed with a data key this server lacks answer 503 credentials_unavailable, never a 500', async () => {
    const id = await createConnector('sealed-user');
    const { store, keyring } = fx.server.hosted;
    const stored = (await store.getConnector(id))!;
    await store.deleteConnector(id);
    const sealed = keyring.encrypt(JSON.stringify({ token: CHAT_TOKEN }));
    await store.createConnectorIfAbsent({ ...stored, credentials: { ...sealed, key_id: 'retired-key' } });
    const response = await fx.http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(await fx.scopedToken('sealed-user')), json: USERS });
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toEqual({ detail: expect.stringMatching(/data key "retired-key"/), error_code: 'credentials_unavailable' });
    expect(response.body).not.toContain(CHAT_TOKEN);
  });

  it("an upstream 404 is the caller's answer: no new look-up, no retry", async () => {
    await createConnector('plain-user');
    const chat = client('plain-user');
    expect((await chat.execute(USERS)).status).toBe('success');
    const requests = await requestsDuring(() =>
      expect(chat.execute({ entity: 'channels', action: 'get', params: { channel: 'C0NOPE' } })).rejects.toMatchObject({
        status: 404,
        error_code: 'channel_not_found',
      }),
    );
    expect(requests).toEqual(['POST /api/v1/connectors/sources/{id}/execute 404']);
  });

  /** The hosted file-storage client of a user with a file-storage connector, talking to `serverUrl` (the server, or a proxy in front of it). */
  async function filesClient(externalUserId: string, serverUrl = fx.server.url) {
    await fx.createConnector(externalUserId, 'file-storage', { access_token: DRIVE_TOKEN });
    const config = { external_user_id: externalUserId, client_id: fx.clientId, client_secret: fx.clientSecret, server_url: serverUrl };
    return runtime.connector('file-storage', config) as unknown as { execute(request: ExecuteRequest): Promise<DownloadResult> };
  }

  async function expectTruncated(download: DownloadResult, what: string) {
    const error = await rejectionOf(collect(download));
    expect(error, what).toBeInstanceOf(PlugboardError);
    expect(error, what).toBeInstanceOf(UpstreamError);
    expect([error.status, error.error_code], what).toEqual([502, 'upstream_truncated']);
  }

  it('a download the upstream cuts mid-body rejects with upstream_truncated, never a short file that ends normally', async () => {
    const files = await filesClient('download-user');
    const fileId = fx.driveSandbox.largeFileId!;
    // Cut before the first byte too: the head must still reach the client, so the cut reads as one.
    for (const truncateAfterBytes of [50_000, 0]) {
      fx.driveSandbox.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, truncateAfterBytes });
      const download = await files.execute({ entity: 'files', action: 'download', params: { fileId, alt: 'media' } });
      expect(download.content_length).toBe(fx.driveSandbox.contentOf(fileId).length);
      await expectTruncated(download, `cut after ${truncateAfterBytes} bytes`);
    }
  });

  it('a download without Content-Length cut mid-body, or a 206 whose body ends early and cleanly, is upstream_truncated too', async () => {
    const proxy = await startCuttingProxy(fx.server.url);
    try {
      const files = await filesClient('cut-user', proxy.url);
      const execute = '/api/v1/connectors/sources/';
      proxy.cutNext({ pathPrefix: execute, afterBytes: 10, framing: 'chunked' });
      const exported = await files.execute({
        entity: 'files_export',
        action: 'download',
        params: { fileId: fx.driveSandbox.data.fixtures.docId, mimeType: 'application/pdf' },
      });
      expect(exported.content_length).toBeNull();
      await expectTruncated(exported, 'chunked export');
      // Close-delimited: the connection's end is the body's, so only the Content-Range span tells the bytes are missing.
      proxy.cutNext({ pathPrefix: execute, afterBytes: 1000, framing: 'close-delimited' });
      const part = await files.execute({
        entity: 'files',
        action: 'download',
        params: { fileId: fx.driveSandbox.largeFileId!, alt: 'media', range_header: 'bytes=0-99999' },
      });
      expect([part.status, part.content_length, part.content_range]).toEqual([
        206,
        null,
        `bytes 0-99999/${fx.driveSandbox.contentOf(fx.driveSandbox.largeFileId!).length}`,
      ]);
      await expectTruncated(part, 'close-delimited 206');
    } finally {
      await proxy.close();
    }
  });

  it('concurrent calls refused after a restart share the new tokens', async () => {
    await createConnector('restart-user');
    const chat = client('restart-user');
    expect((await chat.execute(USERS)).status).toBe('success');
    // The key that signed the client's tokens is long retired and the server restarts: every cached token is refused.
    const [oldKey] = await fx.server.hosted.store.listSigningKeys();
    await fx.server.hosted.tokens.rotateSigningKey();
    await fx.server.hosted.store.retireSigningKey(oldKey!.kid, '2000-01-01T00:00:00.000Z');
    await fx.restart();
    const requests = await requestsDuring(async () => {
      const results = await Promise.all(Array.from({ length: 4 }, () => chat.execute(USERS)));
      expect(results.map((r) => r.status)).toEqual(Array(4).fill('success'));
    });
    expect(count(requests, 'POST /api/v1/connectors/sources/{id}/execute 401')).toBe(4);
    expect(count(requests, 'POST /api/v1/connectors/sources/{id}/execute 200')).toBe(4);
    // The cached operator token is refused once, then one operator token and one scoped token serve all four.
    expect(requests.filter((r) => r.includes('/token') || r.includes('scoped-token') || r.includes('/v1/workspaces'))).toEqual([
      'GET /v1/workspaces 401',
      'POST /api/v1/account/applications/token 200',
      'GET /v1/workspaces 200',
      'POST /api/v1/embedded/scoped-token 200',
    ]);
  });
});

describe('errors read from the wire', () => {
  it("a 403 is the server's access refusal only without an error_code; an upstream 403 keeps its code and detail", () => {
    expect(errorFromWire(403, { detail: 'Access denied to this resource' }, undefined)).toBeInstanceOf(AccessDeniedError);
    const upstream = errorFromWire(
      403,
      { detail: 'Upstream rejected the request: insufficientFilePermissions', error_code: 'insufficientFilePermissions' },
      undefined,
    );
    expect(upstream).not.toBeInstanceOf(AccessDeniedError);
    expect(upstream.toJSON()).toEqual({ detail: 'Upstream rejected the request: insufficientFilePermissions', error_code: 'insufficientFilePermissions' });
    expect(upstream.status).toBe(403);
  });
});
