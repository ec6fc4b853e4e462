import { createHash } from 'node:crypto';
import { exportFormatsOf } from './export.ts';
import { isSelected, type Selection } from './fields.ts';
import { exportLink, extensionsOf, FOLDER, iconLink, isEditorType, isGoogleType, SHORTCUT, webViewLink } from './mime.ts';
import type { DriveStore } from './store.ts';
import type { CommentRecord, DriveFileRecord, DriveUser, PermissionRecord, ReplyRecord, RevisionRecord, SharedDriveRecord } from './types.ts';

/**
 * Resource representations exactly as Drive v3 sends them (full form, before `fields` trims them).
 * Which fields appear depends on where the item lives, as the Drive reference describes: owners,
 * ownedByMe, shared and permissions only outside shared drives; driveId, trashedTime, trashingUser
 * only inside them; checksums, size and revisions only for binary content; exportLinks only for
 * Docs editor files. Absent means the key is not sent (Drive never sends nulls).
 */

export type Wire = Record<string, unknown>;

export function userToWire(user: DriveUser, me: DriveUser, withEmail = true): Wire {
  const out: Wire = {
    kind: 'drive#user',
    displayName: user.displayName,
    photoLink: user.photoLink,
    me: user.emailAddress === me.emailAddress,
    permissionId: user.permissionId,
  };
  if (withEmail) out.emailAddress = user.emailAddress;
  return out;
}

function thumbnailLink(id: string): string {
  const token = createHash('sha256').update(`thumb:${id}`).digest('base64url').slice(0, 40);
  return `https://lh3.googleusercontent.com/drive-storage/${token}=s220`;
}

function hasThumbnail(file: DriveFileRecord): boolean {
  return isEditorType(file.mimeType) || /^(image|video)\//.test(file.mimeType) || file.mimeType === 'application/pdf';
}

function byteSize(file: DriveFileRecord): number | undefined {
  if (file.content) return file.content.kind === 'bytes' ? file.content.bytes.length : file.content.size;
  return file.editorSize;
}

const EDIT_ROLES = new Set(['owner', 'organizer', 'fileOrganizer', 'writer']);

function fileCapabilities(store: DriveStore, file: DriveFileRecord): Wire {
  const role = store.myRole(file);
  const folder = file.mimeType === FOLDER;
  const inDrive = file.driveId !== undefined;
  const canEdit = EDIT_ROLES.has(role);
  const manager = role === 'owner' || role === 'organizer' || (inDrive && role === 'fileOrganizer');
  const canDownload = !file.copyRequiresWriterPermission || canEdit;
  const caps: Wire = {
    canAcceptOwnership: false,
    canAddChildren: folder && canEdit,
    canAddMyDriveParent: false,
    canChangeCopyRequiresWriterPermission: canEdit && !folder,
    canChangeViewersCanCopyContent: canEdit && !folder,
    canComment: canEdit || role === 'commenter',
    canCopy: !folder && canDownload,
    canDelete: inDrive ? role === 'organizer' : role === 'owner',
    canDownload,
    canEdit,
    canListChildren: folder,
    canModifyContent: canEdit && !folder,
    canModifyContentRestriction: canEdit && !folder,
    canModifyLabels: false,
    canMoveItemWithinDrive: canEdit,
    canReadLabels: false,
    canReadRevisions: canEdit,
    canRemoveChildren: folder && canEdit,
    canRemoveMyDriveParent: !inDrive && role === 'owner',
    canRename: canEdit,
    canShare: manager || (role === 'writer' && file.writersCanShare),
    canTrash: manager,
    canUntrash: manager,
  };
  if (inDrive) {
    Object.assign(caps, {
      canDeleteChildren: folder && role === 'organizer',
      canMoveChildrenOutOfDrive: folder && role === 'organizer',
      canMoveChildrenWithinDrive: folder && canEdit,
      canMoveItemOutOfDrive: role === 'organizer',
      canReadDrive: true,
      canTrashChildren: folder && manager,
    });
  } else {
    caps.canMoveItemOutOfDrive = role === 'owner';
  }
  return caps;
}

/** Permissions of a shared-drive item say where they come from. */
function permissionDetails(p: PermissionRecord, onDriveItself: boolean): Wire {
  const details: Wire[] = [
    {
      permissionType: onDriveItself || p.inheritedFrom ? 'member' : 'file',
      role: p.role,
      inherited: p.inheritedFrom !== undefined,
      ...(p.inheritedFrom ? { inheritedFrom: p.inheritedFrom } : {}),
    },
  ];
  return {
    permissionDetails: details,
    teamDrivePermissionDetails: details.map((d) => ({
      teamDrivePermissionType: d.permissionType,
      role: d.role,
      inherited: d.inherited,
      ...(d.inheritedFrom ? { inheritedFrom: d.inheritedFrom } : {}),
    })),
  };
}

export function permissionToWire(p: PermissionRecord, context: { sharedDriveItem: boolean; driveItself: boolean }): Wire {
  const out: Wire = { kind: 'drive#permission', id: p.id, type: p.type, role: p.role };
  if (p.emailAddress !== undefined) out.emailAddress = p.emailAddress;
  if (p.domain !== undefined) out.domain = p.domain;
  if (p.displayName !== undefined) out.displayName = p.displayName;
  if (p.photoLink !== undefined) out.photoLink = p.photoLink;
  if (p.type === 'anyone' || p.type === 'domain') out.allowFileDiscovery = p.allowFileDiscovery ?? false;
  if (p.expirationTime !== undefined) out.expirationTime = p.expirationTime;
  if (p.type === 'user' || p.type === 'group') out.deleted = false;
  if (p.type === 'user' && !context.sharedDriveItem && !context.driveItself) out.pendingOwner = p.pendingOwner ?? false;
  if (context.sharedDriveItem || context.driveItself) Object.assign(out, permissionDetails(p, context.driveItself));
  out.inheritedPermissionsDisabled = false;
  return out;
}

export function fileToWire(store: DriveStore, file: DriveFileRecord, sel: Selection): Wire {
  const me = store.me;
  const inDrive = file.driveId !== undefined;
  const binary = !isGoogleType(file.mimeType);
  const size = byteSize(file);
  const out: Wire = { kind: 'drive#file', id: file.id, name: file.name, mimeType: file.mimeType };
  if (file.resourceKey !== undefined) out.resourceKey = file.resourceKey;
  if (file.description !== undefined) out.description = file.description;
  out.starred = file.starred;
  out.trashed = file.trashed;
  out.explicitlyTrashed = file.explicitlyTrashed;
  if (file.parents.length > 0) out.parents = file.parents.slice();
  if (file.properties) out.properties = { ...file.properties };
  if (file.appProperties) out.appProperties = { ...file.appProperties };
  out.spaces = ['drive'];
  out.version = String(file.version);
  if (binary) out.webContentLink = `https://drive.google.com/uc?id=${file.id}&export=download`;
  out.webViewLink = webViewLink(file.id, file.mimeType);
  out.iconLink = iconLink(file.mimeType);
  out.hasThumbnail = hasThumbnail(file);
  if (hasThumbnail(file)) out.thumbnailLink = thumbnailLink(file.id);
  out.thumbnailVersion = hasThumbnail(file) ? '1' : '0';
  out.viewedByMe = file.viewedByMeTime !== undefined;
  if (file.viewedByMeTime !== undefined) out.viewedByMeTime = file.viewedByMeTime;
  out.createdTime = file.createdTime;
  out.modifiedTime = file.modifiedTime;
  if (file.modifiedByMeTime !== undefined) out.modifiedByMeTime = file.modifiedByMeTime;
  out.modifiedByMe = file.modifiedByMeTime !== undefined;
  if (file.sharedWithMeTime !== undefined) out.sharedWithMeTime = file.sharedWithMeTime;
  const sharer = store.user(file.sharingUserEmail);
  if (sharer) out.sharingUser = userToWire(sharer, me);
  const owner = store.user(file.ownerEmail);
  if (!inDrive && owner) {
    out.owners = [userToWire(owner, me)];
    out.ownedByMe = owner.emailAddress === me.emailAddress;
  }
  if (inDrive) {
    out.driveId = file.driveId;
    out.teamDriveId = file.driveId;
  }
  const modifier = store.user(file.lastModifyingUserEmail);
  if (modifier) out.lastModifyingUser = userToWire(modifier, me);
  const permissions = store.permissionsOf(file.id);
  if (!inDrive) out.shared = permissions.some((p) => p.role !== 'owner');
  out.isAppAuthorized = false;
  out.capabilities = fileCapabilities(store, file);
  out.viewersCanCopyContent = !file.copyRequiresWriterPermission;
  out.copyRequiresWriterPermission = file.copyRequiresWriterPermission;
  out.writersCanShare = file.writersCanShare;
  // The full permission list only for items I can share outside shared drives (Drive reference).
  const caps = out.capabilities as Wire;
  if (!inDrive && caps.canShare === true) out.permissions = permissions.map((p) => permissionToWire(p, { sharedDriveItem: false, driveItself: false }));
  out.permissionIds = permissions.map((p) => p.id);
  if (inDrive) out.hasAugmentedPermissions = false;
  if (file.folderColorRgb !== undefined) out.folderColorRgb = file.folderColorRgb;
  if (binary && file.content) {
    out.originalFilename = file.originalFilename ?? file.name;
    const ext = extensionsOf(file.name);
    if (ext.fullFileExtension !== undefined) out.fullFileExtension = ext.fullFileExtension;
    if (ext.fileExtension !== undefined) out.fileExtension = ext.fileExtension;
    // Checksums of large content cost a full pass; compute them only when the caller selected them.
    if (isSelected(sel, ['md5Checksum']) || isSelected(sel, ['sha1Checksum']) || isSelected(sel, ['sha256Checksum'])) {
      const d = store.digestsOf(file.content);
      out.md5Checksum = d.md5;
      out.sha1Checksum = d.sha1;
      out.sha256Checksum = d.sha256;
    }
    const revisions = store.revisionsOf(file.id);
    const head = revisions[revisions.length - 1];
    if (head) out.headRevisionId = head.id;
  }
  if (size !== undefined) out.size = String(size);
  out.quotaBytesUsed = String(size ?? 0);
  if (isEditorType(file.mimeType)) {
    out.exportLinks = Object.fromEntries(exportFormatsOf(file.mimeType).map((f) => [f.mimeType, exportLink(file.id, file.mimeType, f.extension)]));
  }
  if (file.mimeType === SHORTCUT && file.shortcutTargetId !== undefined) {
    const target = store.file(file.shortcutTargetId);
    out.shortcutDetails = {
      targetId: file.shortcutTargetId,
      ...(target ? { targetMimeType: target.mimeType } : {}),
      ...(target?.resourceKey ? { targetResourceKey: target.resourceKey } : {}),
    };
  }
  if (file.imageMetadata) out.imageMediaMetadata = { ...file.imageMetadata };
  if (file.videoDurationMillis !== undefined) out.videoMediaMetadata = { width: 1920, height: 1080, durationMillis: String(file.videoDurationMillis) };
  if (inDrive && file.trashedTime !== undefined) out.trashedTime = file.trashedTime;
  if (inDrive && file.explicitlyTrashed) {
    const trasher = store.user(file.trashingUserEmail);
    if (trasher) out.trashingUser = userToWire(trasher, me);
  }
  out.linkShareMetadata = { securityUpdateEligible: false, securityUpdateEnabled: true };
  out.inheritedPermissionsDisabled = false;
  const restriction = { restrictedForReaders: false, restrictedForWriters: false };
  out.downloadRestrictions = { itemDownloadRestriction: { ...restriction }, effectiveDownloadRestrictionWithContext: { ...restriction } };
  return out;
}

export function driveToWire(store: DriveStore, drive: SharedDriveRecord): Wire {
  const role = store.myDriveRole(drive.id);
  const organizer = role === 'organizer';
  const canEdit = role !== undefined && EDIT_ROLES.has(role);
  return {
    kind: 'drive#drive',
    id: drive.id,
    name: drive.name,
    colorRgb: drive.colorRgb,
    backgroundImageLink: drive.backgroundImageLink,
    themeId: drive.themeId,
    createdTime: drive.createdTime,
    hidden: drive.hidden,
    capabilities: {
      canAddChildren: canEdit,
      canChangeCopyRequiresWriterPermissionRestriction: organizer,
      canChangeDomainUsersOnlyRestriction: organizer,
      canChangeDownloadRestriction: organizer,
      canChangeDriveBackground: organizer,
      canChangeDriveMembersOnlyRestriction: organizer,
      canChangeSharingFoldersRequiresOrganizerPermissionRestriction: organizer,
      canComment: role !== undefined && role !== 'reader',
      canCopy: true,
      canDeleteChildren: organizer,
      canDeleteDrive: organizer,
      canDownload: true,
      canEdit,
      canListChildren: true,
      canManageMembers: organizer,
      canReadRevisions: canEdit,
      canRename: canEdit,
      canRenameDrive: organizer,
      canResetDriveRestrictions: organizer,
      canShare: organizer || role === 'fileOrganizer',
      canTrashChildren: organizer || role === 'fileOrganizer',
    },
    restrictions: { ...drive.restrictions, downloadRestriction: { restrictedForReaders: false, restrictedForWriters: false } },
  };
}

function htmlOf(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);
}

/** Comment and reply authors never expose email addresses. */
function authorToWire(store: DriveStore, email: string): Wire {
  const user = store.user(email);
  if (!user) return { kind: 'drive#user', displayName: 'Unknown user', me: false };
  return { kind: 'drive#user', displayName: user.displayName, photoLink: user.photoLink, me: user.me };
}

export function replyToWire(store: DriveStore, r: ReplyRecord): Wire {
  const out: Wire = {
    kind: 'drive#reply',
    id: r.id,
    createdTime: r.createdTime,
    modifiedTime: r.modifiedTime,
    author: authorToWire(store, r.authorEmail),
    deleted: r.deleted,
  };
  // Deleted replies keep no content; action replies (resolve) may have none.
  if (!r.deleted && r.content !== '') {
    out.htmlContent = htmlOf(r.content);
    out.content = r.content;
  }
  if (r.action !== undefined) out.action = r.action;
  return out;
}

export function commentToWire(store: DriveStore, c: CommentRecord, includeDeleted: boolean): Wire {
  const out: Wire = {
    kind: 'drive#comment',
    id: c.id,
    createdTime: c.createdTime,
    modifiedTime: c.modifiedTime,
    author: authorToWire(store, c.authorEmail),
    deleted: c.deleted,
  };
  if (!c.deleted) {
    out.htmlContent = htmlOf(c.content);
    out.content = c.content;
  }
  out.resolved = c.resolved;
  if (c.anchor !== undefined) out.anchor = c.anchor;
  if (c.quotedText !== undefined && !c.deleted) out.quotedFileContent = { mimeType: 'text/html', value: c.quotedText };
  out.replies = c.replies.filter((r) => includeDeleted || !r.deleted).map((r) => replyToWire(store, r));
  return out;
}

export function revisionToWire(store: DriveStore, file: DriveFileRecord, r: RevisionRecord, sel: Selection): Wire {
  const out: Wire = { kind: 'drive#revision', id: r.id, mimeType: r.mimeType, modifiedTime: r.modifiedTime };
  const modifier = store.user(r.lastModifyingUserEmail);
  if (modifier) out.lastModifyingUser = userToWire(modifier, store.me);
  if (isEditorType(file.mimeType)) {
    out.published = r.published ?? false;
    out.publishAuto = r.publishAuto ?? false;
    out.publishedOutsideDomain = r.publishedOutsideDomain ?? false;
    out.exportLinks = Object.fromEntries(
      exportFormatsOf(file.mimeType).map((f) => [f.mimeType, `${exportLink(file.id, file.mimeType, f.extension)}&revision=${r.id}`]),
    );
  } else {
    out.keepForever = r.keepForever;
    if (r.originalFilename !== undefined) out.originalFilename = r.originalFilename;
    if (r.content) {
      out.size = String(r.content.kind === 'bytes' ? r.content.bytes.length : r.content.size);
      if (isSelected(sel, ['md5Checksum'])) out.md5Checksum = store.digestsOf(r.content).md5;
    }
  }
  return out;
}
