import { parseRfc3339 } from '../clock.ts';
import { DriveError, fileNotFound, resourceNotFound } from '../errors.ts';
import { COMMENT, COMMENT_LIST, REPLY, REPLY_LIST } from '../field-schema.ts';
import { decodePageToken, fingerprint, pageOf } from '../page-token.ts';
import type { CommentRecord, DriveFileRecord } from '../types.ts';
import { commentToWire, replyToWire } from '../wire.ts';
import { json, pathParam, selectionFor, type FieldsPolicy, type Handler, type HandlerContext } from './context.ts';

/**
 * comments.list/get and replies.list/get. Drive requires `fields` on all four (400 required,
 * "The 'fields' parameter is required for this method."), checked before anything else. Deleted
 * comments and replies are hidden unless includeDeleted=true, and then carry no content.
 * Comments come oldest first; pageSize 1-100, default 20.
 */

const COMMENT_POLICY: FieldsPolicy = { shape: COMMENT };
const COMMENT_LIST_POLICY: FieldsPolicy = { shape: COMMENT_LIST };
const REPLY_POLICY: FieldsPolicy = { shape: REPLY };
const REPLY_LIST_POLICY: FieldsPolicy = { shape: REPLY_LIST };

function fileOf(ctx: HandlerContext): DriveFileRecord {
  const fileId = pathParam(ctx, 'fileId');
  const file = ctx.store.file(fileId);
  if (!file || file === ctx.store.data.root) throw fileNotFound(fileId);
  return file;
}

/** A comment of the file; deleted ones only when includeDeleted (else they do not exist). */
function commentOf(ctx: HandlerContext, file: DriveFileRecord, includeDeleted: boolean): CommentRecord {
  const commentId = pathParam(ctx, 'commentId');
  const comment = ctx.store.commentsOf(file.id).find((c) => c.id === commentId);
  if (!comment || (comment.deleted && !includeDeleted)) throw resourceNotFound('Comment', commentId, 'commentId');
  return comment;
}

export const commentsList: Handler = (ctx) => {
  const { params, store } = ctx;
  const sel = selectionFor(ctx, COMMENT_LIST_POLICY);
  const pageSize = params.pageSize(20, 100);
  const includeDeleted = params.bool('includeDeleted');
  const since = params.str('startModifiedTime');
  const sinceMs = since === undefined ? -Infinity : parseRfc3339(since);
  if (Number.isNaN(sinceMs)) {
    throw new DriveError(400, 'invalid', `Invalid value for startModifiedTime: ${since}`, { location: 'startModifiedTime', locationType: 'parameter' });
  }
  const file = fileOf(ctx);
  const print = fingerprint(['comments', file.id, includeDeleted, since]);
  const offset = decodePageToken(params.str('pageToken'), print);
  const comments = store.commentsOf(file.id).filter((c) => (includeDeleted || !c.deleted) && Date.parse(c.modifiedTime) >= sinceMs);
  const { page, nextPageToken } = pageOf(comments, offset, pageSize, print);
  const body: Record<string, unknown> = { kind: 'drive#commentList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.comments = page.map((c) => commentToWire(store, c, includeDeleted));
  return json(body, sel);
};

export const commentsGet: Handler = (ctx) => {
  const sel = selectionFor(ctx, COMMENT_POLICY);
  const includeDeleted = ctx.params.bool('includeDeleted');
  const comment = commentOf(ctx, fileOf(ctx), includeDeleted);
  return json(commentToWire(ctx.store, comment, includeDeleted), sel);
};

export const repliesList: Handler = (ctx) => {
  const { params, store } = ctx;
  const sel = selectionFor(ctx, REPLY_LIST_POLICY);
  const pageSize = params.pageSize(20, 100);
  const includeDeleted = params.bool('includeDeleted');
  const comment = commentOf(ctx, fileOf(ctx), true);
  const print = fingerprint(['replies', comment.id, includeDeleted]);
  const offset = decodePageToken(params.str('pageToken'), print);
  const replies = comment.replies.filter((r) => includeDeleted || !r.deleted);
  const { page, nextPageToken } = pageOf(replies, offset, pageSize, print);
  const body: Record<string, unknown> = { kind: 'drive#replyList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.replies = page.map((r) => replyToWire(store, r));
  return json(body, sel);
};

export const repliesGet: Handler = (ctx) => {
  const sel = selectionFor(ctx, REPLY_POLICY);
  const includeDeleted = ctx.params.bool('includeDeleted');
  const comment = commentOf(ctx, fileOf(ctx), true);
  const replyId = pathParam(ctx, 'replyId');
  const reply = comment.replies.find((r) => r.id === replyId);
  if (!reply || (reply.deleted && !includeDeleted)) throw resourceNotFound('Reply', replyId, 'replyId');
  return json(replyToWire(ctx.store, reply), sel);
};
