import type { OAuthSandboxOptions } from '../../../testing/oauth/index.ts';

/**
 * The sandbox's in-memory model. Records hold what Drive stores; the JSON Drive sends is built from
 * them per request (wire.ts), because much of it depends on the request (supportsAllDrives, fields).
 * Times are RFC 3339 strings with milliseconds, as Drive writes them ("2024-05-01T10:00:00.000Z").
 */

export interface DriveSandboxOptions extends OAuthSandboxOptions {
  /**
   * The static credential, as `Authorization: Bearer <token>`: valid forever, like a pasted token.
   * Access tokens issued by OAuth (`tokenTtlSeconds`, default 3599; `oauthClient`) are accepted on
   * top; anything else is a 401 Drive error.
   */
  token: string;
  /** Wall clock of OAuth code and token lifetimes, in milliseconds (default Date.now). The seeded world keeps its fixed epoch. */
  clock?: () => number;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 1; the same seed and sizes give identical data. */
  seed?: number;
  /** Generated files, fixtures included (default 60; never fewer than the fixtures). */
  files?: number;
  /** Shared drives (default 3, at least 1: fixtures live in the first). */
  drives?: number;
  /** When set, one extra binary file "large.bin" of exactly this many bytes, generated on the fly. */
  largeFileBytes?: number;
  /**
   * Default true: every request is kept in `requests`, for tests to inspect. A long-running sandbox
   * (the CLI) turns it off, or the log would grow with every request it ever answers.
   */
  recordRequests?: boolean;
}

export interface DriveRequestLogEntry {
  httpMethod: string;
  path: string;
  query: Record<string, string>;
  range: string | null;
}

export interface DriveFault {
  /** Pathname prefix (or exact pathname), e.g. '/drive/v3/files'. */
  path: string;
  /** The HTTP status to answer (400-599); for truncation faults 200 or 206 (the real status is kept). */
  status: number;
  /** How many matching requests the fault applies to (default 1). */
  count?: number;
  /** Seconds, sent as Retry-After (429 always carries one, default 1). */
  retryAfter?: number;
  /** For media and export responses: send the full headers, then destroy the socket after this many body bytes. */
  truncateAfterBytes?: number;
  /** For media and export responses: send the full headers and this many body bytes, then go silent (the connection stays open). */
  stallAfterBytes?: number;
  /** Overrides the Drive error reason derived from the status (e.g. 'userRateLimitExceeded' on a 403). */
  reason?: string;
  /** Overrides the error message. */
  message?: string;
}

export interface DriveUser {
  displayName: string;
  emailAddress: string;
  /** The user's id as seen in Permission resources. */
  permissionId: string;
  photoLink: string;
  me: boolean;
}

export type PermissionType = 'user' | 'group' | 'domain' | 'anyone';
export type PermissionRole = 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'commenter' | 'reader';

export interface PermissionRecord {
  id: string;
  type: PermissionType;
  role: PermissionRole;
  emailAddress?: string;
  domain?: string;
  displayName?: string;
  photoLink?: string;
  allowFileDiscovery?: boolean;
  expirationTime?: string;
  pendingOwner?: boolean;
  /** Set on shared-drive item permissions that come from the drive's membership. */
  inheritedFrom?: string;
}

/** What a binary file's bytes are made of (see content.ts). */
export type ContentSpec =
  /** Small files whose exact bytes are stored (text, CSV, JSON, Markdown). */
  | { kind: 'bytes'; bytes: Buffer }
  /** Any size: a magic header, then a per-file 64 KiB pseudo-random block repeated. */
  | { kind: 'pattern'; size: number; header: Buffer; key: string };

export interface ImageMetadata {
  width: number;
  height: number;
  rotation: number;
  cameraMake?: string;
  cameraModel?: string;
  time?: string;
}

export interface DriveFileRecord {
  id: string;
  name: string;
  mimeType: string;
  description?: string;
  /** Visible parents; empty for items shared with me that sit outside my hierarchy. */
  parents: string[];
  /** Shared drive the item lives in. */
  driveId?: string;
  /** Owner's email (My Drive items only; shared-drive items have no owner). */
  ownerEmail?: string;
  lastModifyingUserEmail: string;
  sharingUserEmail?: string;
  createdTime: string;
  modifiedTime: string;
  modifiedByMeTime?: string;
  viewedByMeTime?: string;
  sharedWithMeTime?: string;
  trashed: boolean;
  explicitlyTrashed: boolean;
  trashedTime?: string;
  trashingUserEmail?: string;
  starred: boolean;
  version: number;
  /** Binary content; absent for folders, shortcuts and Google Docs editor files. */
  content?: ContentSpec;
  /**
   * Docs editor files: bytes of text the document holds; export sizes follow it. Every export of
   * a Google Doc is at least this big, so a Doc with exportBytes over 10 MiB cannot be exported
   * (403 exportSizeLimitExceeded).
   */
  exportBytes?: number;
  /** Reported `size` of Docs editor files (Drive populates it for them too). */
  editorSize?: number;
  originalFilename?: string;
  resourceKey?: string;
  folderColorRgb?: string;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
  shortcutTargetId?: string;
  imageMetadata?: ImageMetadata;
  videoDurationMillis?: number;
  copyRequiresWriterPermission: boolean;
  writersCanShare: boolean;
}

export interface SharedDriveRecord {
  id: string;
  name: string;
  colorRgb: string;
  themeId: string;
  backgroundImageLink: string;
  createdTime: string;
  hidden: boolean;
  restrictions: {
    adminManagedRestrictions: boolean;
    copyRequiresWriterPermission: boolean;
    domainUsersOnly: boolean;
    driveMembersOnly: boolean;
    sharingFoldersRequiresOrganizerPermission: boolean;
  };
}

export interface ReplyRecord {
  id: string;
  authorEmail: string;
  createdTime: string;
  modifiedTime: string;
  content: string;
  action?: 'resolve' | 'reopen';
  deleted: boolean;
}

export interface CommentRecord {
  id: string;
  fileId: string;
  authorEmail: string;
  createdTime: string;
  modifiedTime: string;
  content: string;
  anchor?: string;
  quotedText?: string;
  resolved: boolean;
  deleted: boolean;
  replies: ReplyRecord[];
}

export interface RevisionRecord {
  id: string;
  fileId: string;
  mimeType: string;
  modifiedTime: string;
  lastModifyingUserEmail: string;
  keepForever: boolean;
  /** Binary revisions: their own bytes (the head revision shares the file's content). */
  content?: ContentSpec;
  originalFilename?: string;
  published?: boolean;
  publishAuto?: boolean;
  publishedOutsideDomain?: boolean;
}

export interface ChangeRecord {
  /** Position in the change log; page tokens are these numbers. */
  changeId: number;
  changeType: 'file' | 'drive';
  time: string;
  fileId?: string;
  driveId?: string;
  /** The item was deleted (or access lost); `file` is then not sent. */
  removed: boolean;
}

/** Ids of seeded items with known properties, for tests. */
export interface DriveSandboxFixtures {
  /** My Drive root folder (also reachable as the alias 'root'). */
  rootFolderId: string;
  /** A folder in My Drive with children (including a nested folder). */
  folderId: string;
  nestedFolderId: string;
  /** Google Docs editor files. */
  docId: string;
  sheetId: string;
  slidesId: string;
  drawingId: string;
  /** A Google Doc whose exports all exceed Drive's 10 MB export limit. */
  largeDocId: string;
  /** A binary (PDF) file with pattern content, two older revisions and several permissions. */
  binaryFileId: string;
  /** A small text file whose exact content is `textFileContent`. */
  textFileId: string;
  textFileContent: string;
  /** A JPEG image with imageMediaMetadata. */
  imageFileId: string;
  /** A trashed file in My Drive. */
  trashedFileId: string;
  /** A starred file. */
  starredFileId: string;
  /** A shortcut pointing at binaryFileId. */
  shortcutId: string;
  /** A file owned by someone else and shared with me (no visible parent). */
  sharedWithMeFileId: string;
  /** The first shared drive, and items in it. */
  sharedDriveId: string;
  sharedDriveFolderId: string;
  sharedDriveFileId: string;
  sharedDriveDocId: string;
  sharedDriveTrashedFileId: string;
  /** The Google Doc with comments (some deleted) and replies (some deleted). */
  commentedFileId: string;
  /** A file with revisions (the binary file; the doc has some too). */
  revisionsFileId: string;
  /** A file with user, group, domain and anyone permissions. */
  permissionsFileId: string;
  /** A file that was deleted for good: only the change log remembers it. */
  removedFileId: string;
}

export interface DriveSandboxData {
  readonly seed: number;
  /** "Now" in the sandbox's world: every seeded time is before it. */
  readonly epoch: string;
  readonly me: DriveUser;
  readonly users: readonly DriveUser[];
  readonly domain: string;
  readonly drives: readonly SharedDriveRecord[];
  /** Every file, trashed ones and large.bin included (My Drive root excluded). */
  readonly files: readonly DriveFileRecord[];
  /** The My Drive root folder record (not listed by files.list, like Drive). */
  readonly root: DriveFileRecord;
  /** Permissions by file id or shared drive id. */
  readonly permissions: ReadonlyMap<string, readonly PermissionRecord[]>;
  readonly comments: ReadonlyMap<string, readonly CommentRecord[]>;
  readonly revisions: ReadonlyMap<string, readonly RevisionRecord[]>;
  /** The change log, oldest first; changeIds are consecutive. */
  readonly changes: readonly ChangeRecord[];
  readonly fixtures: DriveSandboxFixtures;
  /** Id of "large.bin" when largeFileBytes was given. */
  readonly largeFileId: string | null;
}
