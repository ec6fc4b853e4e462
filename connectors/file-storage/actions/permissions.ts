import { defineAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/permissions.list.json' with { type: 'json' };
import getParams from '../../../schemas/file-storage/params/permissions.get.json' with { type: 'json' };
import permission from '../../../schemas/file-storage/records/permission.json' with { type: 'json' };
import pageMeta from '../../../schemas/file-storage/meta/page-meta.json' with { type: 'json' };
import { everyField } from './fields.ts';

export const permissionsActions = [
  defineAction({
    entity: 'permissions',
    action: 'list',
    description: "List a file's or shared drive's permissions (permissions.list).",
    params: listParams,
    record: permission,
    meta: pageMeta,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/permissions', ...everyField },
    response: { records: 'permissions', meta: { nextPageToken: 'nextPageToken' } },
    paginated: true,
  }),
  defineAction({
    entity: 'permissions',
    action: 'get',
    description: 'Get a permission (permissions.get).',
    params: getParams,
    record: permission,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/permissions/{permissionId}', ...everyField },
    response: { records: '' },
  }),
];
