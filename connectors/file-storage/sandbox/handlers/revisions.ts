import { DriveError, fileNotFound, invalidValue, resourceNotFound } from '../errors.ts';
import { REVISION, REVISION_LIST } from '../field-schema.ts';
import { ALL, subSelection } from '../fields.ts';
import { FOLDER, isGoogleType, SHORTCUT } from '../mime.ts';
import { decodePageToken, fingerprint, pageOf } from '../page-token.ts';
import type { DriveFileRecord } from '../types.ts';
import { revisionToWire } from '../wire.ts';
import { defaults, json, pathParam, selectionFor, type FieldsPolicy, type Handler, type HandlerContext } from './context.ts';

/**
 * revisions.list (pageSize 1-1000, default 200) and revisions.get, including alt=media for the
 * bytes of a binary file's revision. Folders and shortcuts have no revisions (403
 * revisionsNotSupported); Docs editor revisions have no bytes (403 fileNotDownloadable).
 */

const GET_POLICY: FieldsPolicy = { shape: REVISION, defaults: defaults('kind,id,mimeType,modifiedTime', REVISION) };
const LIST_POLICY: FieldsPolicy = { shape: REVISION_LIST, defaults: defaults('kind,nextPageToken,revisions(kind,id,mimeType,modifiedTime)', REVISION_LIST) };

function fileWithRevisions(ctx: HandlerContext): DriveFileRecord {
  const fileId = pathParam(ctx, 'fileId');
  const file = ctx.store.file(fileId);
  if (!file || file === ctx.store.data.root) throw fileNotFound(fileId);
  if (file.mimeType === FOLDER || file.mimeType === SHORTCUT) {
    throw new DriveError(403, 'revisionsNotSupported', 'The file does not support revisions.', { location: 'fileId', locationType: 'parameter' });
  }
  return file;
}

export const revisionsList: Handler = (ctx) => {
  const { params, store } = ctx;
  const sel = selectionFor(ctx, LIST_POLICY);
  const pageSize = params.pageSize(200, 1000);
  const file = fileWithRevisions(ctx);
  const print = fingerprint(['revisions', file.id]);
  const offset = decodePageToken(params.str('pageToken'), print);
  const { page, nextPageToken } = pageOf(store.revisionsOf(file.id), offset, pageSize, print);
  const revSel = subSelection(sel, 'revisions') ?? ALL;
  const body: Record<string, unknown> = { kind: 'drive#revisionList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.revisions = page.map((r) => revisionToWire(store, file, r, revSel));
  return json(body, sel);
};

export const revisionsGet: Handler = (ctx) => {
  const { params, store } = ctx;
  const alt = params.str('alt') ?? 'json';
  params.bool('acknowledgeAbuse');
  if (alt !== 'json' && alt !== 'media') throw invalidValue('alt');
  const sel = alt === 'json' ? selectionFor(ctx, GET_POLICY) : ALL;
  const file = fileWithRevisions(ctx);
  const revisionId = pathParam(ctx, 'revisionId');
  const revision = store.revisionsOf(file.id).find((r) => r.id === revisionId);
  if (!revision) throw resourceNotFound('Revision', revisionId, 'revisionId');
  if (alt === 'media') {
    if (isGoogleType(file.mimeType) || !revision.content) {
      throw new DriveError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', {
        location: 'alt',
        locationType: 'parameter',
      });
    }
    return { kind: 'media', source: store.source(revision.content), mimeType: revision.mimeType };
  }
  return json(revisionToWire(store, file, revision, sel), sel);
};
