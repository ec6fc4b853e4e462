/**
 * The file-storage connector passes the connector kit, on the Drive sandbox: examples, 422s, records
 * against their schemas for every action (downloads streamed), pagination, and every declared Drive
 * error reason's mapping.
 */
import { afterAll, describe, it } from 'vitest';
import fileStorage from '../connectors/file-storage/index.ts';
import { DriveSandbox } from '../connectors/file-storage/sandbox/index.ts';
import { connectorKit } from '../testing/index.ts';

const TOKEN = 'ya29.kit-secret-drive';

const kit = await connectorKit({
  connector: fileStorage,
  upstream: async () => {
    const sandbox = await DriveSandbox.start({ token: TOKEN });
    return Object.assign({ baseUrl: sandbox.url, credentials: { access_token: TOKEN }, close: () => sandbox.close() }, { sandbox });
  },
  // Ids of the seeded sandbox: its fixture files, a commented file with a reply, a revised file, a shared drive.
  calls: (upstream) => {
    const { data } = (upstream as typeof upstream & { sandbox: DriveSandbox }).sandbox;
    const { fixtures } = data;
    const [commentedFileId, comments] = [...data.comments].find(([, list]) => list.some((comment) => comment.replies.length > 0))!;
    const comment = comments.find((candidate) => candidate.replies.length > 0)!;
    const [revisedFileId, revisions] = [...data.revisions].find(([, list]) => list.length > 0)!;
    const [permittedId, permissions] = [...data.permissions].find(([id, list]) => id === fixtures.binaryFileId && list.length > 0)!;
    return {
      'files.get': [{ fileId: fixtures.textFileId }, { fileId: fixtures.docId, fields: 'id,name' }],
      'files.download': [{ fileId: fixtures.textFileId, alt: 'media' }],
      'files_export.download': [{ fileId: fixtures.docId, mimeType: 'text/plain' }],
      'drives.get': [{ driveId: data.drives[0]!.id }],
      'permissions.list': [{ fileId: permittedId }],
      'permissions.get': [{ fileId: permittedId, permissionId: permissions[0]!.id }],
      'comments.list': [{ fileId: commentedFileId, fields: '*' }],
      'comments.get': [{ fileId: commentedFileId, commentId: comment.id, fields: '*' }],
      'replies.list': [{ fileId: commentedFileId, commentId: comment.id, fields: '*' }],
      'replies.get': [{ fileId: commentedFileId, commentId: comment.id, replyId: comment.replies[0]!.id, fields: '*' }],
      'revisions.list': [{ fileId: revisedFileId }],
      'revisions.get': [{ fileId: revisedFileId, revisionId: revisions[0]!.id }],
      'files.list': [{ pageSize: 50 }],
    };
  },
});
afterAll(() => kit.close());

describe('the file-storage connector passes the connector kit', () => {
  for (const check of kit.checks) it(check.name, check.run);
});
