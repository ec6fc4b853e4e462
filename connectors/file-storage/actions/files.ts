import { defineAction, defineSearchAction } from '../../../core/sdk/index.ts';
import listParams from '../../../schemas/file-storage/params/files.list.json' with { type: 'json' };
import getParams from '../../../schemas/file-storage/params/files.get.json' with { type: 'json' };
import downloadParams from '../../../schemas/file-storage/params/files.download.json' with { type: 'json' };
import exportParams from '../../../schemas/file-storage/params/files_export.download.json' with { type: 'json' };
import file from '../../../schemas/file-storage/records/file.json' with { type: 'json' };
import download from '../../../schemas/file-storage/records/download.json' with { type: 'json' };
import fileListMeta from '../../../schemas/file-storage/meta/file-list-meta.json' with { type: 'json' };
import fileDocument from '../../../schemas/file-storage/search/files.json' with { type: 'json' };
import type { FilesDownloadParams, FilesExportDownloadParams, FilesGetParams, FilesListParams } from '../types.generated.ts';
import { driveFileName } from './file-name.ts';
import { everyField, widenListSelection, widenRecordSelection } from './fields.ts';

export const filesActions = [
  defineAction<FilesListParams>({
    entity: 'files',
    action: 'list',
    description: 'List or search files (files.list).',
    params: listParams,
    record: file,
    meta: fileListMeta,
    request: { method: 'GET', path: '/drive/v3/files', ...everyField },
    // incompleteSearch too: a slim selection must not hide that Drive searched only part of the corpora.
    hooks: widenListSelection('files', ['nextPageToken', 'incompleteSearch']),
    response: { records: 'files', meta: { nextPageToken: 'nextPageToken', incompleteSearch: 'incompleteSearch' } },
    paginated: true,
  }),
  defineAction<FilesGetParams>({
    entity: 'files',
    action: 'get',
    description: "Get a file's metadata (files.get).",
    params: getParams,
    record: file,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}', ...everyField },
    hooks: widenRecordSelection(),
    response: { records: '' },
  }),
  defineAction<FilesDownloadParams>({
    entity: 'files',
    action: 'download',
    description: "Stream a file's content (files.get with alt=media); Range via range_header.",
    params: downloadParams,
    record: download,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}', headerParams: { Range: 'range_header' } },
    response: { records: '' },
    hooks: { fileName: (params, upstream) => driveFileName(upstream, { fileId: params.fileId, supportsAllDrives: params.supportsAllDrives }) },
  }),
  defineAction<FilesExportDownloadParams>({
    entity: 'files_export',
    action: 'download',
    description: 'Stream a Google Docs editors file converted to mimeType (files.export, at most 10 MB).',
    params: exportParams,
    record: download,
    request: { method: 'GET', path: '/drive/v3/files/{fileId}/export', headerParams: { Range: 'range_header' } },
    response: { records: '' },
    // The export's params have no supportsAllDrives; the name is looked up wherever the file is.
    hooks: { fileName: (params, upstream) => driveFileName(upstream, { fileId: params.fileId, supportsAllDrives: true }) },
  }),
  defineSearchAction('files', { document: fileDocument, id: 'id', textFields: ['name', 'description'], substringFields: ['name'] }),
];
