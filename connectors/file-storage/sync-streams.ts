import type { StoredRecord, SyncStreamSettings } from '../../core/sdk/index.ts';

/** A file's sub-list: listed per file the user may list it for, keyed by the file and the item's own id (ids repeat across files). */
function perFile(params: Record<string, unknown>, include: (file: StoredRecord) => boolean): SyncStreamSettings {
  return {
    params,
    primaryKey: ['file_id', 'id'],
    parent: { stream: 'files', params: { fileId: 'id' }, fields: { file_id: 'id' }, include },
  };
}

const NO_REVISIONS = new Set(['application/vnd.google-apps.folder', 'application/vnd.google-apps.shortcut']);
const capability = (file: StoredRecord, name: string) => (file.capabilities as Record<string, unknown> | undefined)?.[name] === true;

/**
 * How the sync engine reads Drive: drives and files whole, each file's permissions and revisions,
 * and the `changes` feed incrementally (the latest change per file) from its saved page token.
 */
export const fileStorageSyncStreams: Record<string, SyncStreamSettings> = {
  files: { params: { pageSize: 1000 } },
  drives: { params: { pageSize: 100 } },
  // Drive refuses a reader or commenter of a My Drive file its permissions (403 insufficientFilePermissions).
  permissions: perFile({ pageSize: 100, supportsAllDrives: true }, (file) => typeof file.driveId === 'string' || capability(file, 'canEdit')),
  // Folders and shortcuts have no revisions (403 revisionsNotSupported).
  revisions: perFile({ pageSize: 1000 }, (file) => capability(file, 'canReadRevisions') && !NO_REVISIONS.has(String(file.mimeType))),
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
