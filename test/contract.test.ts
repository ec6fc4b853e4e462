/**
 * The same interface two ways: every chat and file-storage operation runs in-process and through the
 * hosted server, and both must answer the same (execution metadata aside). Writes run against two
 * chat sandboxes with the same seed and a fixed clock, so identical calls make identical effects.
 * The server runs on each store backend (PostgreSQL when TEST_DATABASE_URL is set), each with its own
 * sandboxes, so the writes of one run don't show in the other's answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, PlugboardError, type DownloadResult, type ExecuteRequest, type ExecuteResult } from '../index.ts';
import { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { collect, DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { BACKENDS, startHostedFixture, type Backend, type HostedFixture } from './helpers/hosted-fixture.ts';

const FIXED_CLOCK = () => 1_800_000_000_000;

type Client = { execute(request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> };
/** The contract sends requests built at run time, so it uses the untyped view of the clients. */
const untyped = (client: unknown) => client as Client;

/** What an execute came to, comparable across modes: the envelope without timing, the bytes of a download, or the error body. */
async function outcome(client: Client, request: ExecuteRequest): Promise<unknown> {
  try {
    const result = await client.execute(request);
    if ('body' in result) {
      const { body: _stream, ...head } = result;
      return { ...head, bytes: (await collect(result)).toString('base64') };
    }
    return { status: result.status, result: result.result, connector_metadata: result.connector_metadata };
  } catch (error) {
    if (!(error instanceof PlugboardError)) throw error;
    return { error: error.constructor.name, status: error.status, body: error.toJSON() };
  }
}

describe.each(BACKENDS)('in-process and hosted (on %s) answer the same', (backend: Backend) => {
  let fx: HostedFixture;
  let localChatSandbox: SlackSandbox;
  let local: { chat: Client; files: Client };
  let hosted: { chat: Client; files: Client };
  let chatConnectorId: string;

  beforeAll(async () => {
    fx = await startHostedFixture(backend, { chatClock: FIXED_CLOCK });
    localChatSandbox = await SlackSandbox.start({ token: CHAT_TOKEN, users: 30, channels: 8, messagesPerChannel: 25, clock: FIXED_CLOCK });
    const runtime = await createRuntime();
    local = {
      chat: untyped(runtime.connector('chat', { credentials: { token: CHAT_TOKEN }, base_url: localChatSandbox.url })),
      files: untyped(runtime.connector('file-storage', { credentials: { access_token: DRIVE_TOKEN }, base_url: fx.driveSandbox.url })),
    };
    // The end user's connectors live in the workspace named after them: the hosted variant's default.
    chatConnectorId = (await fx.createConnector('end-user-7', 'chat', { token: CHAT_TOKEN })).id;
    await fx.createConnector('end-user-7', 'file-storage', { access_token: DRIVE_TOKEN });
    const server = { external_user_id: 'end-user-7', client_id: fx.clientId, client_secret: fx.clientSecret, server_url: fx.server.url };
    hosted = { chat: untyped(runtime.connector('chat', server)), files: untyped(runtime.connector('file-storage', server)) };
  });

  afterAll(async () => {
    await localChatSandbox.close();
    await fx.close();
  });

  async function expectSame(client: 'chat' | 'files', request: ExecuteRequest): Promise<any> {
    const inProcess = await outcome(local[client], request);
    const viaServer = await outcome(hosted[client], request);
    expect(viaServer, `${request.entity}.${request.action} ${JSON.stringify(request.params ?? {})}`).toEqual(inProcess);
    return inProcess;
  }

  // First: both stores replicate the two sandboxes (equal until the writes below change them).
  it('search: the hosted context store and an in-process local one answer the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-contract-'));
    const runtime = await createRuntime();
    const withStore = runtime.connector('chat', {
      credentials: { token: CHAT_TOKEN },
      base_url: localChatSandbox.url,
      context_store: { path: join(dir, 'context.db') },
    });
    try {
      await withStore.replicate!();
      await fx.server.hosted.replicationScheduler.idle();
      expect(Object.values(await fx.server.hosted.contextStore.entityStates(chatConnectorId)).every((entity) => entity.synced_at)).toBe(true);
      const requests: ExecuteRequest[] = [
        {
          entity: 'users',
          action: 'search',
          params: { query: { filter: { eq: { is_bot: false } }, sort: [{ name: 'desc' }] }, limit: 7, fields: ['id', 'name'] },
        },
        { entity: 'users', action: 'search', params: { query: { filter: { fuzzy: { real_name: localChatSandbox.data.users[4]!.real_name ?? 'x' } } } } },
        { entity: 'channels', action: 'context_store_search', params: { query: { filter: { or: [{ like: { name: 'gen' } }, { gt: { num_members: 3 } }] } } } },
        { entity: 'channel_messages', action: 'search', params: { query: { filter: { keyword: { text: 'the deploy release' } } }, limit: 20 } },
        { entity: 'threads', action: 'search', params: { query: { filter: { not: { eq: { reply_count: 0 } } } }, limit: 5 } },
        { entity: 'users', action: 'search', params: { query: { filter: { eq: { no_such_field: 1 } } } } },
      ];
      // took_ms aside: it is timing, as execution_metadata is.
      const untimed = (answer: unknown) => JSON.parse(JSON.stringify(answer, (key, value) => (key === 'took_ms' ? undefined : value)));
      for (const request of requests) {
        const [inProcess, viaServer] = [await outcome(untyped(withStore), request), await outcome(hosted.chat, request)];
        expect(untimed(inProcess), JSON.stringify(request)).toEqual(untimed(viaServer));
      }
      // Paging agrees too: the cursor of one page leads to the same next page in both.
      const first = (await hosted.chat.execute(requests[0]!)) as ExecuteResult<{ next_cursor: string }>;
      const next = { ...requests[0]!, params: { ...requests[0]!.params, cursor: first.result.next_cursor } };
      expect(untimed(await outcome(untyped(withStore), next))).toEqual(untimed(await outcome(hosted.chat, next)));
    } finally {
      await withStore.close!();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every chat operation', async () => {
    const users = await expectSame('chat', { entity: 'users', action: 'list', params: { limit: 5 } });
    expect(users.status).toBe('success');
    expect(users.result).toHaveLength(5);
    await expectSame('chat', { entity: 'users', action: 'list', params: { limit: 5, cursor: users.connector_metadata.next_cursor } });
    await expectSame('chat', { entity: 'users', action: 'get', params: { user: users.result[1].id } });
    const channels = await expectSame('chat', {
      entity: 'channels',
      action: 'list',
      params: { limit: 100, types: 'public_channel,private_channel', exclude_archived: true },
    });
    const channel = channels.result.find((c: { is_member: boolean; is_general: boolean }) => c.is_member && !c.is_general).id;
    await expectSame('chat', { entity: 'channels', action: 'get', params: { channel } });
    const created = await expectSame('chat', { entity: 'channels', action: 'create', params: { name: 'contract-room', is_private: false } });
    await expectSame('chat', { entity: 'channels', action: 'update', params: { channel: created.result.id, name: 'contract-room-2' } });
    const history = await expectSame('chat', { entity: 'channel_messages', action: 'list', params: { channel, limit: 10 } });
    await expectSame('chat', {
      entity: 'channel_messages',
      action: 'list',
      params: { channel, limit: 10, cursor: history.connector_metadata.next_cursor, inclusive: true },
    });
    const posted = await expectSame('chat', { entity: 'messages', action: 'create', params: { channel, text: 'same either way', unfurl_links: false } });
    expect(posted.result.text).toBe('same either way');
    await expectSame('chat', {
      entity: 'messages',
      action: 'create',
      params: { channel, text: 'a reply', thread_ts: posted.result.ts, reply_broadcast: true },
    });
    await expectSame('chat', { entity: 'threads', action: 'list', params: { channel, ts: posted.result.ts } });
    await expectSame('chat', { entity: 'messages', action: 'update', params: { channel, ts: posted.result.ts, text: 'edited' } });
    await expectSame('chat', { entity: 'channel_topics', action: 'create', params: { channel, topic: 'Contract tests' } });
    await expectSame('chat', { entity: 'channel_purposes', action: 'create', params: { channel, purpose: 'Prove both modes agree' } });
    await expectSame('chat', { entity: 'reactions', action: 'create', params: { channel, timestamp: posted.result.ts, name: 'tada' } });
    // Errors agree too: validation, upstream codes, unknown entities.
    await expectSame('chat', { entity: 'reactions', action: 'create', params: { channel, timestamp: posted.result.ts, name: 'tada' } });
    await expectSame('chat', { entity: 'channels', action: 'create', params: { name: 'Bad Name' } });
    await expectSame('chat', { entity: 'channels', action: 'get', params: { channel: 'C0NOPE' } });
    expect((await expectSame('chat', { entity: 'auth_test', action: 'get' })).result.user_id).toBe(localChatSandbox.botUserId);
    expect((await expectSame('chat', { entity: 'emails', action: 'list' })).status).toBe(422);
  });

  it('every file-storage operation, downloads included', async () => {
    const files = await expectSame('files', { entity: 'files', action: 'list', params: { pageSize: 10, q: 'trashed = false' } });
    await expectSame('files', {
      entity: 'files',
      action: 'list',
      params: { pageSize: 10, q: 'trashed = false', pageToken: files.connector_metadata.nextPageToken },
    });
    await expectSame('files', { entity: 'files', action: 'get', params: { fileId: files.result[0].id } });
    const fileId = fx.driveSandbox.largeFileId!;
    const download = await expectSame('files', { entity: 'files', action: 'download', params: { fileId, alt: 'media' } });
    expect(download).toMatchObject({ status: 200, file_name: 'large.bin', content_length: 2 * 1024 * 1024 + 3 });
    expect(Buffer.from(download.bytes, 'base64').equals(fx.driveSandbox.contentOf(fileId))).toBe(true);
    await expectSame('files', { entity: 'files', action: 'download', params: { fileId, alt: 'media', range_header: 'bytes=100-4195' } });
    await expectSame('files', { entity: 'files', action: 'download', params: { fileId: 'no-such-file', alt: 'media' } });
    const { fixtures } = fx.driveSandbox.data;
    await expectSame('files', { entity: 'files', action: 'download', params: { fileId: fixtures.docId, alt: 'media' } });
    await expectSame('files', { entity: 'files_export', action: 'download', params: { fileId: fixtures.docId, mimeType: 'application/pdf' } });
    await expectSame('files', { entity: 'files_export', action: 'download', params: { fileId: fixtures.largeDocId, mimeType: 'application/pdf' } });
    const drives = await expectSame('files', { entity: 'drives', action: 'list', params: { pageSize: 10 } });
    await expectSame('files', { entity: 'drives', action: 'get', params: { driveId: drives.result[0].id } });
    const permissions = await expectSame('files', { entity: 'permissions', action: 'list', params: { fileId: fixtures.commentedFileId } });
    await expectSame('files', { entity: 'permissions', action: 'get', params: { fileId: fixtures.commentedFileId, permissionId: permissions.result[0].id } });
    const comments = await expectSame('files', { entity: 'comments', action: 'list', params: { fileId: fixtures.commentedFileId } });
    const comment = comments.result.find((c: { replies: unknown[] | null }) => (c.replies?.length ?? 0) > 0);
    await expectSame('files', { entity: 'comments', action: 'get', params: { fileId: fixtures.commentedFileId, commentId: comment.id } });
    const replies = await expectSame('files', { entity: 'replies', action: 'list', params: { fileId: fixtures.commentedFileId, commentId: comment.id } });
    await expectSame('files', {
      entity: 'replies',
      action: 'get',
      params: { fileId: fixtures.commentedFileId, commentId: comment.id, replyId: replies.result[0].id },
    });
    const revisions = await expectSame('files', { entity: 'revisions', action: 'list', params: { fileId: fixtures.revisionsFileId } });
    await expectSame('files', { entity: 'revisions', action: 'get', params: { fileId: fixtures.revisionsFileId, revisionId: revisions.result[0].id } });
    await expectSame('files', { entity: 'changes', action: 'list', params: { pageToken: '1', pageSize: 5 } });
    await expectSame('files', { entity: 'changes_start_page_token', action: 'get' });
    await expectSame('files', { entity: 'about', action: 'get' });
    await expectSame('files', { entity: 'files', action: 'list', params: { pageSize: 5000 } });
  });

  it('a download the upstream cuts mid-body fails the same in both modes: upstream_truncated from the iteration', async () => {
    const fileId = fx.driveSandbox.largeFileId!;
    const { docId } = fx.driveSandbox.data.fixtures;
    // Each fault cuts twice: once for the in-process call, once for the server's.
    fx.driveSandbox.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, truncateAfterBytes: 50_000, count: 2 });
    const media = await expectSame('files', { entity: 'files', action: 'download', params: { fileId, alt: 'media' } });
    expect(media).toMatchObject({ error: 'UpstreamError', status: 502, body: { error_code: 'upstream_truncated' } });
    fx.driveSandbox.addFault({ path: `/drive/v3/files/${docId}/export`, status: 200, truncateAfterBytes: 10, count: 2 });
    const exported = await expectSame('files', { entity: 'files_export', action: 'download', params: { fileId: docId, mimeType: 'application/pdf' } });
    expect(exported).toMatchObject({ error: 'UpstreamError', status: 502, body: { error_code: 'upstream_truncated' } });
  });

  it('the hosted variant gets fresh tokens and retries once when the server answers 401', async () => {
    expect((await hosted.chat.execute({ entity: 'users', action: 'list', params: { limit: 1 } })).status).toBe('success');
    // The key that signed the client's cached tokens is retired long ago, and the server restarts:
    // the cached tokens are now refused, and the client must recover by itself.
    const [oldKey] = await fx.server.hosted.store.listSigningKeys();
    await fx.server.hosted.tokens.rotateSigningKey();
    await fx.server.hosted.store.retireSigningKey(oldKey!.kid, '2000-01-01T00:00:00.000Z');
    await fx.restart();
    const before = fx.logs.length;
    expect((await hosted.chat.execute({ entity: 'users', action: 'list', params: { limit: 1 } })).status).toBe('success');
    const statuses = fx.logs
      .slice(before)
      .map((line) => JSON.parse(line) as { path: string; status: number })
      .filter((l) => l.path?.endsWith('/execute'))
      .map((l) => l.status);
    expect(statuses).toEqual([401, 200]);
  });
});
