import { defineAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/drives.list.json' with { type: 'json' };
import getParams from '../../../schemas/file-storage/params/drives.get.json' with { type: 'json' };
import drive from '../../../schemas/file-storage/records/drive.json' with { type: 'json' };
import pageMeta from '../../../schemas/file-storage/meta/page-meta.json' with { type: 'json' };
import { everyField } from './fields.ts';

export const drivesActions = [
  defineAction({
    entity: 'drives',
    action: 'list',
    description: 'List shared drives (drives.list).',
    params: listParams,
    record: drive,
    meta: pageMeta,
    request: { method: 'GET', path: '/drive/v3/drives', ...everyField },
    response: { records: 'drives', meta: { nextPageToken: 'nextPageToken' } },
    paginated: true,
  }),
  defineAction({
    entity: 'drives',
    action: 'get',
    description: 'Get a shared drive (drives.get).',
    params: getParams,
    record: drive,
    request: { method: 'GET', path: '/drive/v3/drives/{driveId}', ...everyField },
    response: { records: '' },
  }),
];
