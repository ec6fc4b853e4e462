import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError, ValidationError } from '../core/index.ts';
import { validateDriveRequest } from './helpers/drive-openapi.ts';
import { rejectionOf } from './helpers/chat-fixture.ts';
import { collect, startDriveFixture } from './helpers/drive-fixture.ts';

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

async function firstFile(q: string) {
  const { result } = await fx.drive.files.list({ q, pageSize: 1 });
  if (!result[0]) throw new Error(`no file matches ${q}`);
  return result[0];
}

/** A file with comments, and one of its comments with replies. */
async function commentedFile() {
  for await (const file of fx.drive.paginate({ entity: 'files', action: 'list', params: { q: "trashed = false and mimeType != 'application/vnd.google-apps.folder'" } })) {
    const comments = await fx.drive.comments.list({ fileId: file.id });
    const withReplies = comments.result.find((c) => (c.replies?.length ?? 0) > 0);
    if (withReplies) return { file, comments, comment: withReplies };
  }
  throw new Error('no file has a comment with replies');
}

describe('file-storage connector, every operation against the Drive sandbox', () => {
  it('files.list: full records, SPEC meta, q, orderBy, pageSize, paging', async () => {
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
    expect(Object.keys(slim.result[0]!).filter((k) => slim.result[0]![k] !== null).sort()).toEqual(['id', 'name']);

    const ids: string[] = [];
    for await (const file of fx.drive.paginate({ entity: 'files', action: 'list', params: { pageSize: 7, fields: 'nextPageToken,files(id)' } })) ids.push(file.id);
    expect(new Set(ids).size).toBe(ids.length);
    const all = await fx.drive.files.list({ pageSize: 1000, fields: 'nextPageToken,files(id)' });
    expect(ids.length).toBe(all.result.length);
    expect(all.connector_metadata.nextPageToken).toBeNull();
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
    expect(beyond.status).toBe(416);
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

    const unsupported = await rejectionOf(fx.drive.files_export.download({ fileId: sheet.id, mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }));
    expect(unsupported.status).toBe(400);

    const huge = fx.sandbox.data.files.find((f) => f.mimeType === GOOGLE_DOC && (f.exportBytes ?? 0) > 10 * 1024 * 1024);
    expect(huge).toBeDefined();
    const tooBig = await rejectionOf(fx.drive.files_export.download({ fileId: huge!.id, mimeType: 'application/pdf' }));
    expect([tooBig.status, tooBig.error_code]).toEqual([400, 'exportSizeLimitExceeded']);
    expect(tooBig.detail).toMatch(/10 MB/);
  });

  it('a truncated upstream stream surfaces as an error, never a short file', async () => {
    const fileId = fx.sandbox.largeFileId!;
    fx.sandbox.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, truncateAfterBytes: 100_000 });
    const download = await fx.drive.files.download({ fileId, alt: 'media' }).catch(async () => {
      // The fault may hit the name look-up (same path); the content request comes next.
      return fx.drive.files.download({ fileId, alt: 'media' });
    });
    const error = await rejectionOf(collect(download));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.error_code).toBe('upstream_stream_truncated');
  });

  it('drives.list and drives.get', async () => {
    const drives = await fx.drive.drives.list({ pageSize: 100 });
    expect(drives.result.length).toBeGreaterThan(0);
    expect(Object.keys(drives.connector_metadata)).toEqual(['nextPageToken']);
    expectRecords('drives', 'list', drives.result);
    const one = await fx.drive.drives.get({ driveId: drives.result[0]!.id });
    expect(one.result.id).toBe(drives.result[0]!.id);
    expectRecords('drives', 'get', one.result);
    const first = await fx.drive.drives.list({ pageSize: 1 });
    expect(first.result).toHaveLength(1);
  });

  it('permissions.list and permissions.get', async () => {
    const file = await firstFile('trashed = false');
    const permissions = await fx.drive.permissions.list({ fileId: file.id, pageSize: 100 });
    expect(permissions.result.length).toBeGreaterThan(0);
    expectRecords('permissions', 'list', permissions.result);
    const one = await fx.drive.permissions.get({ fileId: file.id, permissionId: permissions.result[0]!.id });
    expect(one.result.id).toBe(permissions.result[0]!.id);
    expectRecords('permissions', 'get', one.result);
    expect((await rejectionOf(fx.drive.permissions.get({ fileId: file.id, permissionId: 'nope' }))).status).toBe(404);
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

  it('revisions.list and revisions.get', async () => {
    let fileId: string | undefined;
    let revisions: Awaited<ReturnType<typeof fx.drive.revisions.list>> | undefined;
    for await (const file of fx.drive.paginate({ entity: 'files', action: 'list', params: { q: "trashed = false and mimeType != 'application/vnd.google-apps.folder'" } })) {
      revisions = await fx.drive.revisions.list({ fileId: file.id, pageSize: 1000 });
      fileId = file.id;
      if (revisions.result.length > 1) break;
    }
    expect(revisions!.result.length).toBeGreaterThan(1);
    expectRecords('revisions', 'list', revisions!.result);
    const one = await fx.drive.revisions.get({ fileId: fileId!, revisionId: revisions!.result[0]!.id });
    expect(one.result.id).toBe(revisions!.result[0]!.id);
    expectRecords('revisions', 'get', one.result);
  });

  it('changes: start page token, then the feed to newStartPageToken', async () => {
    const start = await fx.drive.changes_start_page_token.get();
    expect(start.result.startPageToken).toMatch(/\S/);
    expectRecords('changes_start_page_token', 'get', start.result);
    const page = await fx.drive.changes.list({ pageToken: '1', pageSize: 2, includeRemoved: true });
    expect(Object.keys(page.connector_metadata).sort()).toEqual(['newStartPageToken', 'nextPageToken']);
    expectRecords('changes', 'list', page.result);
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

  it('sent only requests the Drive spec declares', () => {
    expect(fx.sandbox.requests.length).toBeGreaterThan(20);
    for (const entry of fx.sandbox.requests) expect(validateDriveRequest(entry), `${entry.path}?${JSON.stringify(entry.query)}`).toEqual([]);
  });
});

describe('file-storage params and limits', () => {
  const raw = (request: Record<string, unknown>) => fx.drive.execute(request as never);
  const issues = async (promise: Promise<unknown>) => {
    const error = await rejectionOf(promise);
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  };

  it('pageSize ranges: 1-1000 for files, revisions, changes; 1-100 for drives, permissions, comments, replies', async () => {
    for (const [entity, params] of [['files', {}], ['revisions', { fileId: 'f' }], ['changes', { pageToken: '1' }]] as const) {
      await issues(raw({ entity, action: 'list', params: { ...params, pageSize: 1001 } }));
      await issues(raw({ entity, action: 'list', params: { ...params, pageSize: 0 } }));
    }
    for (const [entity, params] of [['drives', {}], ['permissions', { fileId: 'f' }], ['comments', { fileId: 'f' }], ['replies', { fileId: 'f', commentId: 'c' }]] as const) {
      const [issue] = await issues(raw({ entity, action: 'list', params: { ...params, pageSize: 101 } }));
      expect(issue).toMatchObject({ loc: ['body', 'params', 'pageSize'], msg: 'ensure this value is less than or equal to 100' });
    }
    expect((await fx.drive.files.list({ pageSize: 1000 })).status).toBe('success');
  });

  it('required params per SPEC', async () => {
    const required = async (entity: string, action: string, params: Record<string, unknown>, missing: string) => {
      const found = await issues(raw({ entity, action, params }));
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

  it('alt must be media, mimeType one of the SPEC export formats, ranges well formed', async () => {
    const [alt] = await issues(raw({ entity: 'files', action: 'download', params: { fileId: 'f', alt: 'json' } }));
    expect(alt).toMatchObject({ loc: ['body', 'params', 'alt'], type: 'type_error.enum' });
    const [mime] = await issues(raw({ entity: 'files_export', action: 'download', params: { fileId: 'f', mimeType: 'image/gif' } }));
    expect(mime!.msg).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    await issues(fx.drive.files.download({ fileId: 'f', alt: 'media', range_header: '0-100' }));
    await issues(raw({ entity: 'files', action: 'list', params: { corpora: 'everything' } }));
    await issues(raw({ entity: 'files', action: 'list', params: { spaces: 'photos' } }));
    await issues(raw({ entity: 'comments', action: 'list', params: { fileId: 'f', startModifiedTime: 'yesterday' } }));
  });
});
