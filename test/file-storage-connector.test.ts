import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, RateLimitedError, UpstreamError, ValidationError, type DownloadResult } from '../index.ts';
import type { TransportSettings } from '../core/sdk/index.ts';
import fileStorage from '../connectors/file-storage/index.ts';
import { validateDriveRequest } from './helpers/drive-openapi.ts';
import { issuesOf, rejectionOf } from './helpers/chat-fixture.ts';
import { collect, DRIVE_TOKEN, startDriveFixture } from './helpers/drive-fixture.ts';

let fx: Awaited<ReturnType<typeof startDriveFixture>>;

beforeAll(async () => {
  fx = await startDriveFixture({ largeFileBytes: 3 * 1024 * 1024 + 17 });
});
afterAll(async () => {
  await fx.sandbox.close();
});

function expectRecords(entity: string, action: string, records: unknown) {
  const { validateRecord } = fx.plugin.resolve(entity, action);
  for (const record of Array.isArray(records) ? records : [records]) {
    validateRecord(record);
    expect(validateRecord.errors ?? [], JSON.stringify(record).slice(0, 300)).toEqual([]);
  }
}

const GOOGLE_DOC = 'application/vnd.google-apps.document';

/** The file-storage connector with other transport settings (shorter timeouts, fewer retries), on the same sandbox. */
async function driveWith(transport: Partial<TransportSettings>) {
  const runtime = await createRuntime({ builtins: false });
  runtime.registerConnector({ ...fileStorage, transport: { ...fileStorage.transport, ...transport } });
  return runtime.connector('file-storage', { credentials: { access_token: DRIVE_TOKEN }, base_url: fx.sandbox.url });
}

/** The sandbox's log entries from position `from` on, for one path (and `alt=media` or not). */
function sent(from: number, path: string, media?: boolean) {
  return fx.sandbox.requests.slice(from).filter((r) => r.path === path && (media === undefined || (r.query.alt === 'media') === media));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a download, sleeping `pauseMs` before each chunk after the first `pauseAfter` chunks (or only once, when `once`). */
async function readSlowly(download: DownloadResult, pauseMs: number, options: { once?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let paused = false;
  try {
    for await (const chunk of download.body) {
      chunks.push(Buffer.from(chunk));
      if (!options.once || !paused) await sleep(pauseMs);
      paused = true;
    }
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error: error as UpstreamError };
  }
  return { bytes: Buffer.concat(chunks), error: undefined };
}

async function firstFile(q: string) {
  const { result } = await fx.drive.files.list({ q, pageSize: 1 });
  if (!result[0]) throw new Error(`no file matches ${q}`);
  return result[0];
}

/** A file with comments, and one of its comments with replies. */
async function commentedFile() {
  for await (const file of fx.drive.paginate({
    entity: 'files',
    action: 'list',
    params: { q: "trashed = false and mimeType != 'application/vnd.google-apps.folder'" },
  })) {
    const comments = await fx.drive.comments.list({ fileId: file.id });
    const withReplies = comments.result.find((c) => (c.replies?.length ?? 0) > 0);
    if (withReplies) return { file, comments, comment: withReplies };
  }
  throw new Error('no file has a comment with replies');
}

describe('file-storage connector, every operation against the Drive sandbox', () => {
  it('files.list: full records, list meta (nextPageToken, incompleteSearch), q, orderBy, pageSize, paging', async () => {
    const page = await fx.drive.files.list({ pageSize: 5 });
    expect(page.result).toHaveLength(5);
    expect(Object.keys(page.connector_metadata).sort()).toEqual(['incompleteSearch', 'nextPageToken']);
    expect(typeof page.connector_metadata.nextPageToken).toBe('string');
    expectRecords('files', 'list', page.result);
    // Drive's default partial response is four fields; the connector asks for every field.
    expect(page.result[0]).toMatchObject({ kind: 'drive#file', id: expect.any(String), createdTime: expect.any(String), owners: expect.any(Array) });

    const docs = await fx.drive.files.list({ q: `mimeType = '${GOOGLE_DOC}' and trashed = false`, orderBy: 'name desc' });
    expect(docs.result.length).toBeGreaterThan(0);
    expect(docs.result.every((f) => f.mimeType === GOOGLE_DOC && f.trashed === false)).toBe(true);
    const names = docs.result.map((f) => f.name!);
    expect(names).toEqual([...names].sort().reverse());

    const slim = await fx.drive.files.list({ pageSize: 3, fields: 'nextPageToken,files(id,name)' });
    expect(
      Object.keys(slim.result[0]!)
        .filter((k) => slim.result[0]![k] !== null)
        .sort(),
    ).toEqual(['id', 'name']);

    const ids: string[] = [];
    for await (const file of fx.drive.paginate({ entity: 'files', action: 'list', params: { pageSize: 7, fields: 'nextPageToken,files(id)' } }))
      ids.push(file.id);
    expect(new Set(ids).size).toBe(ids.length);
    const all = await fx.drive.files.list({ pageSize: 1000, fields: 'nextPageToken,files(id)' });
    expect(ids.length).toBe(all.result.length);
    expect(all.connector_metadata.nextPageToken).toBeNull();
  });

  it('a caller selection never drops what paging and the records need: nextPageToken and id', async () => {
    const all = await fx.drive.files.list({ pageSize: 1000 });
    // Leaves out nextPageToken: the connector adds it, so paging still walks every page.
    const ids: string[] = [];
    for await (const file of fx.drive.paginate({ entity: 'files', action: 'list', params: { pageSize: 7, fields: 'files(name)' } })) ids.push(file.id);
    expect(ids.length).toBe(all.result.length);
    expect(new Set(ids)).toEqual(new Set(all.result.map((f) => f.id)));
    const page = await fx.drive.files.list({ pageSize: 3, fields: 'files(name)' });
    expect(typeof page.connector_metadata.nextPageToken).toBe('string');
    expectRecords('files', 'list', page.result);

    // Leaves out id: the record keeps its non-null id and validates.
    const { id, name } = all.result[0]!;
    const one = await fx.drive.files.get({ fileId: id, fields: 'name' });
    expect(one.result).toMatchObject({ id, name, mimeType: null });
    expectRecords('files', 'get', one.result);
    const comments = await fx.drive.comments.list({ fileId: fx.sandbox.data.fixtures.commentedFileId, fields: 'comments(content)' });
    expect(comments.result.length).toBeGreaterThan(0);
    expect(comments.result.every((c) => typeof c.id === 'string' && typeof c.content === 'string')).toBe(true);
    expectRecords('comments', 'list', comments.result);

    // A selection that already has them is sent as given; * is left alone.
    const before = fx.sandbox.requests.length;
    await fx.drive.files.list({ pageSize: 1, fields: 'nextPageToken,incompleteSearch,files(id,name)' });
    await fx.drive.files.get({ fileId: id, fields: '*' });
    expect(fx.sandbox.requests.slice(before).map((r) => r.query.fields)).toEqual(['nextPageToken,incompleteSearch,files(id,name)', '*']);
  });

  it('files.get, and a 404 for an unknown file', async () => {
    const file = await firstFile('trashed = false');
    const one = await fx.drive.files.get({ fileId: file.id });
    expect(one.result).toMatchObject({ id: file.id, name: file.name });
    expect(one.connector_metadata).toEqual({});
    expectRecords('files', 'get', one.result);
    const error = await rejectionOf(fx.drive.files.get({ fileId: 'no-such-file' }));
    expect([error.status, error.error_code]).toEqual([404, 'notFound']);
  });

  it('files.download streams the exact bytes, with type, length and name', async () => {
    const fileId = fx.sandbox.largeFileId!;
    const download = await fx.drive.files.download({ fileId, alt: 'media' });
    expect(download).toMatchObject({ status: 200, content_length: 3 * 1024 * 1024 + 17, content_range: null, file_name: 'large.bin' });
    expect(download.content_type).toMatch(/^application\/octet-stream/);
    const bytes = await collect(download);
    expect(bytes.equals(fx.sandbox.contentOf(fileId))).toBe(true);
  });

  it('files.download with range_header passes the 206 and Content-Range through', async () => {
    const fileId = fx.sandbox.largeFileId!;
    const total = 3 * 1024 * 1024 + 17;
    const partial = await fx.drive.files.download({ fileId, alt: 'media', range_header: 'bytes=1000-1999' });
    expect(partial).toMatchObject({ status: 206, content_length: 1000, content_range: `bytes 1000-1999/${total}` });
    expect((await collect(partial)).equals(fx.sandbox.contentOf(fileId, 1000, 1999))).toBe(true);
    const tail = await fx.drive.files.download({ fileId, alt: 'media', range_header: 'bytes=-10' });
    expect(tail.content_range).toBe(`bytes ${total - 10}-${total - 1}/${total}`);
    expect((await collect(tail)).equals(fx.sandbox.contentOf(fileId, total - 10, total - 1))).toBe(true);
    const beyond = await rejectionOf(fx.drive.files.download({ fileId, alt: 'media', range_header: `bytes=${total + 5}-` }));
    expect([beyond.status, beyond.error_code]).toEqual([416, 'requestedRangeNotSatisfiable']);
    // Drive's Content-Range: bytes */<size> tells the caller how long the file is.
    expect(beyond.detail).toContain(`the content is ${total} bytes long`);
  });

  it('a byte range that ends before it starts is a 422, never a whole file', async () => {
    const fileId = fx.sandbox.largeFileId!;
    const before = fx.sandbox.requests.length;
    for (const download of [
      fx.drive.files.download({ fileId, alt: 'media', range_header: 'bytes=100-50' }),
      fx.drive.files_export.download({ fileId: fx.sandbox.data.fixtures.docId, mimeType: 'text/plain', range_header: 'bytes=10-9' }),
    ]) {
      const error = await rejectionOf(download);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        { loc: ['body', 'params', 'range_header'], msg: expect.stringContaining('last byte position is before the first'), type: 'value_error.range' },
      ]);
    }
    expect(fx.sandbox.requests.slice(before).filter((r) => r.range !== null)).toEqual([]);
    // One byte (first = last) is a valid range.
    const one = await fx.drive.files.download({ fileId, alt: 'media', range_header: 'bytes=50-50' });
    expect((await collect(one)).equals(fx.sandbox.contentOf(fileId, 50, 50))).toBe(true);
  });

  it('files.download refuses Docs editors files with a pointer to files_export.download, and 404s a missing file', async () => {
    const doc = await firstFile(`mimeType = '${GOOGLE_DOC}'`);
    const error = await rejectionOf(fx.drive.files.download({ fileId: doc.id, alt: 'media' }));
    expect(error.status).toBe(400);
    expect(error.error_code).toBe('fileNotDownloadable');
    expect(error.detail).toMatch(/files_export\.download/);
    const missing = await rejectionOf(fx.drive.files.download({ fileId: 'no-such-file', alt: 'media' }));
    expect([missing.status, missing.error_code]).toEqual([404, 'notFound']);
  });

  it('files_export.download converts, honours ranges, and refuses exports over 10 MB', async () => {
    const doc = await firstFile(`mimeType = '${GOOGLE_DOC}' and trashed = false`);
    const pdf = await fx.drive.files_export.download({ fileId: doc.id, mimeType: 'application/pdf' });
    expect(pdf.status).toBe(200);
    expect(pdf.content_type).toMatch(/^application\/pdf/);
    expect(pdf.file_name).toBe(doc.name);
    const whole = await collect(pdf);
    expect(whole.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await collect(await fx.drive.files_export.download({ fileId: doc.id, mimeType: 'text/plain' }));
    expect(text.length).toBeGreaterThan(0);
    const part = await fx.drive.files_export.download({ fileId: doc.id, mimeType: 'application/pdf', range_header: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect((await collect(part)).equals(whole.subarray(0, 10))).toBe(true);

    const sheet = await firstFile("mimeType = 'application/vnd.google-apps.spreadsheet'");
    const csv = await collect(await fx.drive.files_export.download({ fileId: sheet.id, mimeType: 'text/csv' }));
    expect(csv.toString()).toContain(',');

    const unsupported = await rejectionOf(
      fx.drive.files_export.download({ fileId: sheet.id, mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }),
    );
    expect(unsupported.status).toBe(400);

    const huge = fx.sandbox.data.files.find((f) => f.mimeType === GOOGLE_DOC && (f.exportBytes ?? 0) > 10 * 1024 * 1024);
    expect(huge).toBeDefined();
    const tooBig = await rejectionOf(fx.drive.files_export.download({ fileId: huge!.id, mimeType: 'application/pdf' }));
    expect([tooBig.status, tooBig.error_code]).toEqual([400, 'exportSizeLimitExceeded']);
    expect(tooBig.detail).toMatch(/10 MB/);
  });

  it('a truncated upstream stream surfaces at once as an error, never a short file, and is not replayed', async () => {
    const fileId = fx.sandbox.largeFileId!;
    const path = `/drive/v3/files/${fileId}`;
    const before = fx.sandbox.requests.length;
    // Media faults skip metadata requests, so the name look-up passes and the content request is cut.
    fx.sandbox.addFault({ path, status: 200, truncateAfterBytes: 100_000 });
    const download = await fx.drive.files.download({ fileId, alt: 'media' });
    const { bytes, error } = await readSlowly(download, 0);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error!.error_code).toBe('upstream_truncated');
    expect(bytes.length).toBeLessThan(fx.sandbox.contentOf(fileId).length);
    // No fresh full-file request behind the caller's back, once a retry (about 1 s of backoff) would have fired.
    await sleep(1_300);
    expect(sent(before, path, true)).toHaveLength(1);
  });

  it('a truncated export stream surfaces as an error too', async () => {
    const { docId } = fx.sandbox.data.fixtures;
    fx.sandbox.addFault({ path: `/drive/v3/files/${docId}/export`, status: 200, truncateAfterBytes: 10 });
    const download = await fx.drive.files_export.download({ fileId: docId, mimeType: 'application/pdf' });
    const error = await rejectionOf(collect(download));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.error_code).toBe('upstream_truncated');
  });

  it('drives.list and drives.get', async () => {
    const drives = await fx.drive.drives.list({ pageSize: 100 });
    expect(drives.result.length).toBeGreaterThan(0);
    expect(Object.keys(drives.connector_metadata)).toEqual(['nextPageToken']);
    expectRecords('drives', 'list', drives.result);
    // Drive's default answer is kind, id and name; the connector asks for every field.
    for (const drive of drives.result)
      expect(drive).toMatchObject({ name: expect.any(String), createdTime: expect.any(String), capabilities: expect.any(Object) });
    const one = await fx.drive.drives.get({ driveId: drives.result[0]!.id });
    expect(one.result).toMatchObject({
      id: drives.result[0]!.id,
      name: drives.result[0]!.name,
      createdTime: expect.any(String),
      restrictions: expect.any(Object),
    });
    expectRecords('drives', 'get', one.result);
    const first = await fx.drive.drives.list({ pageSize: 1 });
    expect(first.result).toHaveLength(1);
    // The drives params have no `fields`: every field is asked for, and a selection is refused.
    const refused = await rejectionOf(fx.drive.execute({ entity: 'drives', action: 'get', params: { driveId: one.result.id, fields: 'name' } } as never));
    expect((refused as ValidationError).issues).toEqual([{ loc: ['body', 'params', 'fields'], msg: 'extra fields not permitted', type: 'value_error.extra' }]);
  });

  it('permissions.list and permissions.get, with every field', async () => {
    const fileId = fx.sandbox.data.fixtures.permissionsFileId;
    const permissions = await fx.drive.permissions.list({ fileId, pageSize: 100 });
    expect(permissions.result.length).toBeGreaterThan(0);
    expectRecords('permissions', 'list', permissions.result);
    // Drive's default answer is kind, id, type and role; the connector asks for every field.
    const user = permissions.result.find((p) => p.type === 'user');
    expect(user).toMatchObject({ emailAddress: expect.stringContaining('@'), displayName: expect.any(String), role: expect.any(String) });
    expect(permissions.result.find((p) => p.type === 'domain')).toMatchObject({ domain: expect.any(String) });
    const one = await fx.drive.permissions.get({ fileId, permissionId: user!.id });
    expect(one.result).toMatchObject({ id: user!.id, emailAddress: user!.emailAddress, displayName: user!.displayName, role: user!.role });
    expectRecords('permissions', 'get', one.result);
    expect((await rejectionOf(fx.drive.permissions.get({ fileId, permissionId: 'nope' }))).status).toBe(404);
  });

  it('comments and replies work without `fields` (the connector sends *), and with it', async () => {
    const { file, comments, comment } = await commentedFile();
    expect(Object.keys(comments.connector_metadata)).toEqual(['nextPageToken']);
    expectRecords('comments', 'list', comments.result);
    const one = await fx.drive.comments.get({ fileId: file.id, commentId: comment.id });
    expect(one.result).toMatchObject({ id: comment.id, content: comment.content });
    expectRecords('comments', 'get', one.result);
    const replies = await fx.drive.replies.list({ fileId: file.id, commentId: comment.id });
    expect(replies.result.length).toBeGreaterThan(0);
    expectRecords('replies', 'list', replies.result);
    const reply = await fx.drive.replies.get({ fileId: file.id, commentId: comment.id, replyId: replies.result[0]!.id });
    expect(reply.result.id).toBe(replies.result[0]!.id);
    expectRecords('replies', 'get', reply.result);
    const slim = await fx.drive.comments.list({ fileId: file.id, fields: 'comments(id)' });
    expect(slim.result[0]!.content).toBeNull();
    const sent = fx.sandbox.requests.filter((r) => r.path.endsWith('/comments') || r.path.includes('/replies'));
    expect(sent.every((r) => typeof r.query.fields === 'string' && r.query.fields !== '')).toBe(true);
  });

  it('revisions.list and revisions.get, with every field', async () => {
    const fileId = fx.sandbox.data.fixtures.revisionsFileId;
    const revisions = await fx.drive.revisions.list({ fileId, pageSize: 1000 });
    expect(revisions.result.length).toBeGreaterThan(1);
    expectRecords('revisions', 'list', revisions.result);
    // Drive's default answer is kind, id, mimeType and modifiedTime; the connector asks for every field.
    for (const revision of revisions.result) {
      expect(revision).toMatchObject({
        size: expect.stringMatching(/^\d+$/),
        md5Checksum: expect.stringMatching(/^[0-9a-f]{32}$/),
        lastModifyingUser: expect.any(Object),
        keepForever: expect.any(Boolean),
      });
    }
    const one = await fx.drive.revisions.get({ fileId, revisionId: revisions.result[0]!.id });
    expect(one.result).toMatchObject({ id: revisions.result[0]!.id, size: revisions.result[0]!.size, md5Checksum: revisions.result[0]!.md5Checksum });
    expectRecords('revisions', 'get', one.result);
  });

  it('changes: start page token, then the feed to newStartPageToken', async () => {
    const start = await fx.drive.changes_start_page_token.get();
    expect(start.result.startPageToken).toMatch(/\S/);
    expectRecords('changes_start_page_token', 'get', start.result);
    const page = await fx.drive.changes.list({ pageToken: '1', pageSize: 2, includeRemoved: true });
    expect(Object.keys(page.connector_metadata).sort()).toEqual(['newStartPageToken', 'nextPageToken']);
    expectRecords('changes', 'list', page.result);
    // Drive's default answer trims each changed file; the connector asks for every field.
    const changes = await fx.drive.changes.list({ pageToken: '1', pageSize: 1000 });
    const withFile = changes.result.filter((c) => c.file);
    expect(withFile.length).toBeGreaterThan(0);
    for (const change of withFile)
      expect(change.file).toMatchObject({
        id: change.fileId,
        name: expect.any(String),
        mimeType: expect.any(String),
        modifiedTime: expect.any(String),
        owners: expect.any(Array),
      });
    let token: string | null = '1';
    let last: typeof page | undefined;
    for (let pages = 0; token && pages < 1000; pages += 1) {
      last = await fx.drive.changes.list({ pageToken: token, pageSize: 5, includeRemoved: true });
      token = last.connector_metadata.nextPageToken ?? null;
    }
    expect(last!.connector_metadata.newStartPageToken).toBe(start.result.startPageToken);
    expect(last!.connector_metadata.nextPageToken).toBeNull();
  });

  it('about.get works without `fields`', async () => {
    const about = await fx.drive.about.get();
    expect(about.result).toMatchObject({ kind: 'drive#about', user: expect.any(Object), storageQuota: expect.any(Object) });
    expectRecords('about', 'get', about.result);
  });

  it('honours a 429 Retry-After from Drive', async () => {
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 429, retryAfter: 1 });
    expect((await fx.drive.drives.list()).status).toBe('success');
  });

  it("retries Drive's 403 rate limits (userRateLimitExceeded, rateLimitExceeded) like a 429", async () => {
    const before = fx.sandbox.requests.length;
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 403, reason: 'userRateLimitExceeded' });
    expect((await fx.drive.drives.list()).status).toBe('success');
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 403, reason: 'rateLimitExceeded' });
    expect((await fx.drive.drives.list()).status).toBe('success');
    expect(sent(before, '/drive/v3/drives')).toHaveLength(4);
  });

  it('a rate limit still in force after the retries is a 429 with a Retry-After hint', async () => {
    const drive = await driveWith({ maxRetries: 1 });
    let before = fx.sandbox.requests.length;
    // No Retry-After from Drive (its 403 sends none): the hint is the next backoff step, 2^retries s.
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 403, reason: 'userRateLimitExceeded', count: 2 });
    const limited = await rejectionOf(drive.drives.list());
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect([limited.status, limited.error_code, (limited as RateLimitedError).retryAfterSeconds]).toEqual([429, 'userRateLimitExceeded', 2]);
    expect(sent(before, '/drive/v3/drives')).toHaveLength(2);
    // Drive's own Retry-After wins.
    before = fx.sandbox.requests.length;
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 429, retryAfter: 1, count: 2 });
    const again = await rejectionOf(drive.drives.list());
    expect([again.status, again.error_code, (again as RateLimitedError).retryAfterSeconds]).toEqual([429, 'rateLimitExceeded', 1]);
    expect(sent(before, '/drive/v3/drives')).toHaveLength(2);
  });

  it('a 403 that is not a rate limit is not retried', async () => {
    const before = fx.sandbox.requests.length;
    fx.sandbox.addFault({
      path: '/drive/v3/drives',
      status: 403,
      reason: 'insufficientFilePermissions',
      message: 'The user does not have sufficient permissions for this file.',
    });
    const error = await rejectionOf(fx.drive.drives.list());
    expect([error.status, error.error_code]).toEqual([403, 'insufficientFilePermissions']);
    expect(sent(before, '/drive/v3/drives')).toHaveLength(1);
  });

  it('a Drive 5xx is retried, then a 502 naming the reason', async () => {
    const drive = await driveWith({ maxRetries: 1 });
    const before = fx.sandbox.requests.length;
    fx.sandbox.addFault({ path: '/drive/v3/drives', status: 503, count: 2 });
    const error = await rejectionOf(drive.drives.list());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.toJSON()).toEqual({ detail: 'Upstream rejected the request: backendError (Backend Error)', error_code: 'backendError' });
    expect(sent(before, '/drive/v3/drives')).toHaveLength(2);
  });

  it('a token Drive refuses (401) is a 502 authError that never echoes the token', async () => {
    const drive = fx.runtime.connector('file-storage', { credentials: { access_token: 'ya29.wrong-secret-7' }, base_url: fx.sandbox.url });
    const error = await rejectionOf(drive.files.list());
    expect(error).toBeInstanceOf(UpstreamError);
    expect([error.status, error.error_code]).toEqual([502, 'authError']);
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain('ya29.wrong-secret-7');
    const download = await rejectionOf(drive.files.download({ fileId: fx.sandbox.largeFileId!, alt: 'media' }));
    expect([download.status, download.error_code]).toEqual([502, 'authError']);
  });

  it('files_export.download of a file that is not a Docs editors file: 400 fileNotExportable pointing to files.download', async () => {
    const error = await rejectionOf(fx.drive.files_export.download({ fileId: fx.sandbox.data.fixtures.binaryFileId, mimeType: 'application/pdf' }));
    expect([error.status, error.error_code]).toEqual([400, 'fileNotExportable']);
    expect(error.detail).toMatch(/files\.download/);
  });

  it('sent only requests the Drive spec declares', () => {
    expect(fx.sandbox.requests.length).toBeGreaterThan(20);
    for (const entry of fx.sandbox.requests) expect(validateDriveRequest(entry), `${entry.path}?${JSON.stringify(entry.query)}`).toEqual([]);
  });
});

describe('download timeouts: bounded steps up to the response head and silence mid-body, never the whole transfer', () => {
  // Short timeouts so the tests are quick; the defaults are the manifest's 60 s.
  const TIMEOUT = 600;
  const shortTimeouts = () => driveWith({ timeoutMs: TIMEOUT, streamIdleTimeoutMs: TIMEOUT });

  it('a download that keeps flowing may take far longer than the timeouts', async () => {
    // The idle timeout keeps a wide margin here: a loaded machine can hold the socket quiet for a while.
    const drive = await driveWith({ timeoutMs: TIMEOUT, streamIdleTimeoutMs: 3 * TIMEOUT });
    const fileId = fx.sandbox.largeFileId!;
    // A slow reader: every chunk waits 40 ms, well within the idle timeout, so the 3 MB take seconds.
    const { bytes, error } = await readSlowly(await drive.files.download({ fileId, alt: 'media' }), 40);
    expect(error).toBeUndefined();
    expect(bytes.equals(fx.sandbox.contentOf(fileId))).toBe(true);
  });

  it('a small file survives a reader paused longer than the timeouts', async () => {
    const drive = await shortTimeouts();
    const { textFileId, textFileContent } = fx.sandbox.data.fixtures;
    const { bytes, error } = await readSlowly(await drive.files.download({ fileId: textFileId, alt: 'media' }), 2 * TIMEOUT);
    expect(error).toBeUndefined();
    expect(bytes.toString()).toBe(textFileContent);
  });

  it('a connection silent mid-body past the idle timeout is upstream_timeout, never a short file', async () => {
    const drive = await shortTimeouts();
    const fileId = fx.sandbox.largeFileId!;
    const path = `/drive/v3/files/${fileId}`;
    const before = fx.sandbox.requests.length;
    // Drive stops sending after 100 kB but keeps the connection open.
    fx.sandbox.addFault({ path, status: 200, stallAfterBytes: 100_000 });
    const download = await drive.files.download({ fileId, alt: 'media' });
    const { bytes, error } = await readSlowly(download, 0);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error!.error_code).toBe('upstream_timeout');
    expect(bytes.length).toBe(100_000);
    expect(sent(before, path, true)).toHaveLength(1);

    // A reader that stops pulling a large body for longer than the idle timeout leaves the connection
    // silent too: the same error, with the part read so far never passed off as the file.
    const paused = await readSlowly(await drive.files.download({ fileId, alt: 'media' }), 3 * TIMEOUT, { once: true });
    expect(paused.error?.error_code).toBe('upstream_timeout');
    expect(paused.bytes.length).toBeLessThan(fx.sandbox.contentOf(fileId).length);
  });
});

describe('file-storage params and limits', () => {
  const raw = (request: Record<string, unknown>) => fx.drive.execute(request as never);

  it('pageSize ranges: 1-1000 for files, revisions, changes; 1-100 for drives, permissions, comments, replies', async () => {
    for (const [entity, params] of [
      ['files', {}],
      ['revisions', { fileId: 'f' }],
      ['changes', { pageToken: '1' }],
    ] as const) {
      await issuesOf(raw({ entity, action: 'list', params: { ...params, pageSize: 1001 } }));
      await issuesOf(raw({ entity, action: 'list', params: { ...params, pageSize: 0 } }));
    }
    for (const [entity, params] of [
      ['drives', {}],
      ['permissions', { fileId: 'f' }],
      ['comments', { fileId: 'f' }],
      ['replies', { fileId: 'f', commentId: 'c' }],
    ] as const) {
      const [issue] = await issuesOf(raw({ entity, action: 'list', params: { ...params, pageSize: 101 } }));
      expect(issue).toMatchObject({ loc: ['body', 'params', 'pageSize'], msg: 'ensure this value is less than or equal to 100' });
    }
    expect((await fx.drive.files.list({ pageSize: 1000 })).status).toBe('success');
  });

  it('required params as the param schemas declare them', async () => {
    const required = async (entity: string, action: string, params: Record<string, unknown>, missing: string) => {
      const found = await issuesOf(raw({ entity, action, params }));
      expect(found).toContainEqual({ loc: ['body', 'params', missing], msg: 'field required', type: 'value_error.missing' });
    };
    await required('files', 'get', {}, 'fileId');
    await required('files', 'download', { fileId: 'f' }, 'alt');
    await required('files_export', 'download', { fileId: 'f' }, 'mimeType');
    await required('drives', 'get', {}, 'driveId');
    await required('permissions', 'get', { fileId: 'f' }, 'permissionId');
    await required('comments', 'get', { fileId: 'f' }, 'commentId');
    await required('replies', 'get', { fileId: 'f', commentId: 'c' }, 'replyId');
    await required('revisions', 'get', { fileId: 'f' }, 'revisionId');
    await required('changes', 'list', {}, 'pageToken');
  });

  it('corpora, driveId and includeItemsFromAllDrives go together as Drive requires, checked before calling it', async () => {
    const before = fx.sandbox.requests.length;
    const allDrives = await issuesOf(fx.drive.files.list({ corpora: 'allDrives' }));
    expect(allDrives).toContainEqual({ loc: ['body', 'params', 'includeItemsFromAllDrives'], msg: 'field required', type: 'value_error.missing' });
    expect(allDrives).toContainEqual({ loc: ['body', 'params'], msg: 'corpora=allDrives needs includeItemsFromAllDrives=true', type: 'value_error.if' });
    const notTrue = await issuesOf(fx.drive.files.list({ corpora: 'allDrives', includeItemsFromAllDrives: false }));
    expect(notTrue).toContainEqual({
      loc: ['body', 'params', 'includeItemsFromAllDrives'],
      msg: 'must be true with corpora=allDrives (Drive refuses the call otherwise)',
      type: 'value_error.const',
    });
    const drive = await issuesOf(fx.drive.files.list({ corpora: 'drive', includeItemsFromAllDrives: true }));
    expect(drive).toContainEqual({ loc: ['body', 'params', 'driveId'], msg: 'field required', type: 'value_error.missing' });
    const driveId = fx.sandbox.data.fixtures.sharedDriveId;
    const noCorpora = await issuesOf(fx.drive.files.list({ driveId, includeItemsFromAllDrives: true }));
    expect(noCorpora).toContainEqual({ loc: ['body', 'params', 'corpora'], msg: 'field required', type: 'value_error.missing' });
    const userCorpora = await issuesOf(fx.drive.files.list({ corpora: 'user', driveId, includeItemsFromAllDrives: true }));
    expect(userCorpora).toContainEqual({ loc: ['body', 'params', 'corpora'], msg: 'must be drive when driveId is given', type: 'value_error.const' });
    expect(fx.sandbox.requests.length).toBe(before);

    const everywhere = await fx.drive.files.list({ corpora: 'allDrives', includeItemsFromAllDrives: true, supportsAllDrives: true, pageSize: 1000 });
    expect(everywhere.result.some((f) => f.driveId === driveId)).toBe(true);
    const inDrive = await fx.drive.files.list({ corpora: 'drive', driveId, includeItemsFromAllDrives: true, supportsAllDrives: true, pageSize: 1000 });
    expect(inDrive.result.length).toBeGreaterThan(0);
    expect(inDrive.result.every((f) => f.driveId === driveId)).toBe(true);
  });

  it('alt must be media, mimeType one of the supported export formats, ranges well formed', async () => {
    const [alt] = await issuesOf(raw({ entity: 'files', action: 'download', params: { fileId: 'f', alt: 'json' } }));
    expect(alt).toMatchObject({ loc: ['body', 'params', 'alt'], type: 'type_error.enum' });
    const [mime] = await issuesOf(raw({ entity: 'files_export', action: 'download', params: { fileId: 'f', mimeType: 'image/gif' } }));
    expect(mime!.msg).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    await issuesOf(fx.drive.files.download({ fileId: 'f', alt: 'media', range_header: '0-100' }));
    await issuesOf(raw({ entity: 'files', action: 'list', params: { corpora: 'everything' } }));
    await issuesOf(raw({ entity: 'files', action: 'list', params: { spaces: 'photos' } }));
    await issuesOf(raw({ entity: 'comments', action: 'list', params: { fileId: 'f', startModifiedTime: 'yesterday' } }));
  });
});
