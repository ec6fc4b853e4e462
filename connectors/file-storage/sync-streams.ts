import type { SyncStreamSettings } from '../../core/sdk/index.ts';

/** A file's sub-list: listed per file, keyed by the file and the item's own id (ids repeat across files). */
const perFile: SyncStreamSettings = {
  params: { pageSize: 100 },
  primaryKey: ['file_id', 'id'],
  parent: { stream: 'files', params: { fileId: 'id' }, fields: { file_id: 'id' } },
};

/**
 * How the sync engine reads Drive: drives and files whole, each file's permissions and revisions,
 * and the `changes` feed incrementally (the latest change per file) from its saved page token.
 */
export const fileStorageSyncStreams: Record<string, SyncStreamSettings> = {
  files: { params: { pageSize: 1000 } },
  drives: { params: { pageSize: 100 } },
  permissions: perFile,
  revisions: { ...perFile, params: { pageSize: 1000 } },
  changes: {
    params: { pageSize: 1000 },
    primaryKey: ['fileId'],
    incremental: {
      startToken: { entity: 'changes_start_page_token', action: 'get', field: 'startPageToken' },
      startParam: 'pageToken',
      nextTokenMeta: 'newStartPageToken',
    },
  },
};
