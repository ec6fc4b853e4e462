import { defineAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/files.list.json' with { type: 'json' };
import getParams from '../../../schemas/file-storage/params/files.get.json' with { type: 'json' };
import downloadParams from '../../../schemas/file-storage/params/files.download.json' with { type: 'json' };
import exportParams from '../../../schemas/file-storage/params/files_export.download.json' with { type: 'json' };
import file from '../../../schemas/file-storage/records/file.json' with { type: 'json' };
import download from '../../../schemas/file-storage/records/download.json' with { type: 'json' };
import fileListMeta from '../../../schemas/file-storage/meta/file-list-meta.json' with { type: 'json' };
import { listFields, recordFields } from './fields.ts';

export const filesActions = [
  defineAction({
    entity: 'files',
    action: 'list',
    description: 'List or search files (files.list).',
    params: listParams,
    record: file,
    meta: fileListMeta,
    // incompleteSearch too: a slim selection must not hide that Drive searched only part of the corpora.
    request: { method: 'GET', path: '/drive/v3/files', ...listFields('files', ['nextPageToken', 'incompleteSearch']) },
    response: { records: 'files', meta: { nextPageToken: 'nextPageToken', incompleteSearch: 'incompleteSearch' } },
    paginated: true,
  }),
  defineAction({
    entity: 'files',
    action: 'get',
    description: "Get a file's metadata (files.get).",
    params: getParams,
    record: file,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}', ...recordFields },
    response: { records: '' },
  }),
  defineAction({
    entity: 'files',
    action: 'download',
    description: "Stream a file's content (files.get with alt=media); Range via range_header.",
    params: downloadParams,
    record: download,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}', headerParams: { Range: 'range_header' } },
    response: { records: '' },
    fileName: { path: '/drive/v3/files/{fileId}', query: { fields: 'name' }, field: 'name', forwardParams: ['supportsAllDrives'] },
  }),
  defineAction({
    entity: 'files_export',
    action: 'download',
    description: 'Stream a Google Docs editors file converted to mimeType (files.export, at most 10 MB).',
    params: exportParams,
    record: download,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/export', headerParams: { Range: 'range_header' } },
    response: { records: '' },
    fileName: { path: '/drive/v3/files/{fileId}', query: { fields: 'name', supportsAllDrives: true }, field: 'name' },
  }),
];
