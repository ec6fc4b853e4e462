import { defineConnector } from '../../core/sdk/index.ts';
import { filesActions } from './actions/files.ts';
import { drivesActions } from './actions/drives.ts';
import { permissionsActions } from './actions/permissions.ts';
import { commentsActions } from './actions/comments.ts';
import { revisionsActions } from './actions/revisions.ts';
import { changesActions } from './actions/changes.ts';
import { driveErrors } from './upstream-errors.ts';
import { replicateFiles } from './replication.ts';
import { fileStorageSyncStreams } from './sync-streams.ts';

/** The file-storage connector, on the Google Drive v3 REST API: files, shared drives, permissions, comments, revisions and changes. */
export default defineConnector({
  type: 'file-storage',
  displayName: 'File storage (Google Drive v3)',
  icon: new URL('./icon.svg', import.meta.url).href,
  auth: {
    oauth: { header: 'Authorization', scheme: 'Bearer' },
    token: { header: 'Authorization', scheme: 'Bearer' },
    // Google's web-server flow: offline access and a forced consent bring a refresh token, which Google does not rotate.
    oauth2: {
      providerName: 'Google',
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      scopes: ['https://www.googleapis.com/auth/drive.readonly'],
      authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
      pkce: true,
      expiredToken: { status: 401 },
      revokedCodes: ['invalid_grant'],
    },
  },
  defaultBaseUrl: 'https://www.googleapis.com',
  transport: { timeoutMs: 60_000, maxRetries: 3, maxRetryAfterSeconds: 60, errors: driveErrors },
  pagination: { cursorParam: 'pageToken', nextCursorMeta: 'nextPageToken' },
  replicate: replicateFiles,
  syncStreams: fileStorageSyncStreams,
  actions: [...filesActions, ...drivesActions, ...permissionsActions, ...commentsActions, ...revisionsActions, ...changesActions],
  // about.get works for any Drive token; `user` keeps the answer small. A refused token is a 401
  // authError; a token without any Drive scope a 403 insufficientPermissions.
  check: { entity: 'about', action: 'get', params: { fields: 'user' }, rejectedCodes: ['authError', 'insufficientPermissions'] },
});
