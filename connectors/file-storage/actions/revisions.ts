import { defineAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/revisions.list.json' with { type: 'json' };
import getParams from '../../../schemas/file-storage/params/revisions.get.json' with { type: 'json' };
import revision from '../../../schemas/file-storage/records/revision.json' with { type: 'json' };
import pageMeta from '../../../schemas/file-storage/meta/page-meta.json' with { type: 'json' };
import { everyField } from './fields.ts';

export const revisionsActions = [
  defineAction({
    entity: 'revisions',
    action: 'list',
    description: "List a file's revisions (revisions.list).",
    params: listParams,
    record: revision,
    meta: pageMeta,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/revisions', ...everyField },
    response: { records: 'revisions', meta: { nextPageToken: 'nextPageToken' } },
    paginated: true,
  }),
  defineAction({
    entity: 'revisions',
    action: 'get',
    description: "Get a revision's metadata (revisions.get).",
    params: getParams,
    record: revision,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/revisions/{revisionId}', ...everyField },
    response: { records: '' },
  }),
];
