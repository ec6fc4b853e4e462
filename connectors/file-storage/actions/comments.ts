import { defineAction } from '../../../core/sdk/index.ts';
import commentsListParams from '../../../schemas/file-storage/params/comments.list.json' with { type: 'json' };
import commentsGetParams from '../../../schemas/file-storage/params/comments.get.json' with { type: 'json' };
import repliesListParams from '../../../schemas/file-storage/params/replies.list.json' with { type: 'json' };
import repliesGetParams from '../../../schemas/file-storage/params/replies.get.json' with { type: 'json' };
import comment from '../../../schemas/file-storage/records/comment.json' with { type: 'json' };
import reply from '../../../schemas/file-storage/records/reply.json' with { type: 'json' };
import pageMeta from '../../../schemas/file-storage/meta/page-meta.json' with { type: 'json' };
import type { CommentsGetParams, CommentsListParams, RepliesGetParams, RepliesListParams } from '../types.generated.ts';
import { everyField, widenListSelection, widenRecordSelection } from './fields.ts';

export const commentsActions = [
  defineAction<CommentsListParams>({
    entity: 'comments',
    action: 'list',
    description: "List a file's comments (comments.list).",
    params: commentsListParams,
    record: comment,
    meta: pageMeta,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/comments', ...everyField },
    hooks: widenListSelection('comments'),
    response: { records: 'comments', meta: { nextPageToken: 'nextPageToken' } },
    paginated: true,
  }),
  defineAction<CommentsGetParams>({
    entity: 'comments',
    action: 'get',
    description: 'Get a comment (comments.get).',
    params: commentsGetParams,
    record: comment,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/comments/{commentId}', ...everyField },
    hooks: widenRecordSelection(),
    response: { records: '' },
  }),
  defineAction<RepliesListParams>({
    entity: 'replies',
    action: 'list',
    description: "List a comment's replies (replies.list).",
    params: repliesListParams,
    record: reply,
    meta: pageMeta,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/comments/{commentId}/replies', ...everyField },
    hooks: widenListSelection('replies'),
    response: { records: 'replies', meta: { nextPageToken: 'nextPageToken' } },
    paginated: true,
  }),
  defineAction<RepliesGetParams>({
    entity: 'replies',
    action: 'get',
    description: 'Get a reply (replies.get).',
    params: repliesGetParams,
    record: reply,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/comments/{commentId}/replies/{replyId}', ...everyField },
    hooks: widenRecordSelection(),
    response: { records: '' },
  }),
];
