/**
 * The shape of every resource the sandbox serves (field names as in the Drive v3 reference), used
 * to validate `fields` selectors: Drive rejects a selector naming a field the resource does not
 * have, even when the field would be absent anyway.
 */

export type Shape = 'leaf' | 'map' | ObjectShape | ArrayShape;
export interface ObjectShape {
  readonly fields: Readonly<Record<string, Shape>>;
}
export interface ArrayShape {
  readonly of: Shape;
}

export function isObjectShape(shape: Shape): shape is ObjectShape {
  return typeof shape === 'object' && 'fields' in shape;
}
export function isArrayShape(shape: Shape): shape is ArrayShape {
  return typeof shape === 'object' && 'of' in shape;
}

const LEAF = 'leaf' as const;
const MAP = 'map' as const;

function leaves(names: string): Record<string, Shape> {
  return Object.fromEntries(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((n) => [n, LEAF]),
  );
}
function obj(fields: Record<string, Shape>): ObjectShape {
  return { fields };
}
function arr(of: Shape): ArrayShape {
  return { of };
}

export const USER = obj(leaves('displayName emailAddress kind me permissionId photoLink'));

const DOWNLOAD_RESTRICTION = obj(leaves('restrictedForReaders restrictedForWriters'));

export const PERMISSION = obj({
  ...leaves(
    'allowFileDiscovery deleted displayName domain emailAddress expirationTime id inheritedPermissionsDisabled kind pendingOwner photoLink role type view',
  ),
  permissionDetails: arr(obj(leaves('inherited inheritedFrom permissionType role'))),
  teamDrivePermissionDetails: arr(obj(leaves('inherited inheritedFrom role teamDrivePermissionType'))),
});

const LABEL = obj({ ...leaves('id kind revisionId'), fields: MAP });

export const FILE = obj({
  ...leaves(
    'copyRequiresWriterPermission createdTime description driveId explicitlyTrashed fileExtension folderColorRgb fullFileExtension ' +
      'hasAugmentedPermissions hasThumbnail headRevisionId iconLink id inheritedPermissionsDisabled isAppAuthorized kind md5Checksum mimeType ' +
      'modifiedByMe modifiedByMeTime modifiedTime name originalFilename ownedByMe quotaBytesUsed resourceKey sha1Checksum sha256Checksum ' +
      'shared sharedWithMeTime size starred teamDriveId thumbnailLink thumbnailVersion trashed trashedTime version viewedByMe viewedByMeTime ' +
      'viewersCanCopyContent webContentLink webViewLink writersCanShare',
  ),
  appProperties: MAP,
  properties: MAP,
  exportLinks: MAP,
  capabilities: obj(
    leaves(
      'canAcceptOwnership canAccessViaGenAi canAddChildren canAddFolderFromAnotherDrive canAddMyDriveParent canChangeCopyRequiresWriterPermission ' +
        'canChangeItemDownloadRestriction canChangeSecurityUpdateEnabled canChangeViewersCanCopyContent canComment canCopy canDelete canDeleteChildren ' +
        'canDisableInheritedPermissions canDownload canEdit canEnableInheritedPermissions canListChildren canModifyContent canModifyContentRestriction ' +
        'canModifyEditorContentRestriction canModifyLabels canModifyOwnerContentRestriction canMoveChildrenOutOfDrive canMoveChildrenOutOfTeamDrive ' +
        'canMoveChildrenWithinDrive canMoveChildrenWithinTeamDrive canMoveItemIntoTeamDrive canMoveItemOutOfDrive canMoveItemOutOfTeamDrive ' +
        'canMoveItemWithinDrive canMoveItemWithinTeamDrive canMoveTeamDriveItem canReadDrive canReadLabels canReadRevisions canReadTeamDrive ' +
        'canRemoveChildren canRemoveContentRestriction canRemoveMyDriveParent canRename canShare canStartApproval canTrash canTrashChildren canUntrash',
    ),
  ),
  clientEncryptionDetails: obj({
    encryptionState: LEAF,
    decryptionMetadata: obj(leaves('aes256GcmChunkSize encryptionResourceKeyHash jwt kaclsId kaclsName keyFormat wrappedKey')),
  }),
  contentHints: obj({ indexableText: LEAF, thumbnail: obj(leaves('image mimeType')) }),
  contentRestrictions: arr(obj({ ...leaves('ownerRestricted readOnly reason restrictionTime systemRestricted type'), restrictingUser: USER })),
  downloadRestrictions: obj({ effectiveDownloadRestrictionWithContext: DOWNLOAD_RESTRICTION, itemDownloadRestriction: DOWNLOAD_RESTRICTION }),
  imageMediaMetadata: obj({
    ...leaves(
      'aperture cameraMake cameraModel colorSpace exposureBias exposureMode exposureTime flashUsed focalLength height isoSpeed lens ' +
        'maxApertureValue meteringMode rotation sensor subjectDistance time whiteBalance width',
    ),
    location: obj(leaves('altitude latitude longitude')),
  }),
  labelInfo: obj({ labels: arr(LABEL) }),
  lastModifyingUser: USER,
  linkShareMetadata: obj(leaves('securityUpdateEligible securityUpdateEnabled')),
  owners: arr(USER),
  parents: arr(LEAF),
  permissionIds: arr(LEAF),
  permissions: arr(PERMISSION),
  sharingUser: USER,
  shortcutDetails: obj(leaves('targetId targetMimeType targetResourceKey')),
  spaces: arr(LEAF),
  trashingUser: USER,
  videoMediaMetadata: obj(leaves('durationMillis height width')),
});

export const FILE_LIST = obj({ ...leaves('incompleteSearch kind nextPageToken'), files: arr(FILE) });

export const DRIVE = obj({
  ...leaves('backgroundImageLink colorRgb createdTime hidden id kind name orgUnitId themeId'),
  backgroundImageFile: obj(leaves('id width xCoordinate yCoordinate')),
  capabilities: obj(
    leaves(
      'canAddChildren canChangeCopyRequiresWriterPermissionRestriction canChangeDomainUsersOnlyRestriction canChangeDownloadRestriction ' +
        'canChangeDriveBackground canChangeDriveMembersOnlyRestriction canChangeSharingFoldersRequiresOrganizerPermissionRestriction canComment ' +
        'canCopy canDeleteChildren canDeleteDrive canDownload canEdit canListChildren canManageMembers canReadRevisions canRename canRenameDrive ' +
        'canResetDriveRestrictions canShare canTrashChildren',
    ),
  ),
  restrictions: obj({
    ...leaves('adminManagedRestrictions copyRequiresWriterPermission domainUsersOnly driveMembersOnly sharingFoldersRequiresOrganizerPermission'),
    downloadRestriction: DOWNLOAD_RESTRICTION,
  }),
});

export const DRIVE_LIST = obj({ ...leaves('kind nextPageToken'), drives: arr(DRIVE) });

export const PERMISSION_LIST = obj({ ...leaves('kind nextPageToken'), permissions: arr(PERMISSION) });

export const REPLY = obj({
  ...leaves('action assigneeEmailAddress content createdTime deleted htmlContent id kind modifiedTime'),
  author: USER,
  mentionedEmailAddresses: arr(LEAF),
});

export const REPLY_LIST = obj({ ...leaves('kind nextPageToken'), replies: arr(REPLY) });

export const COMMENT = obj({
  ...leaves('anchor assigneeEmailAddress content createdTime deleted htmlContent id kind modifiedTime resolved'),
  author: USER,
  mentionedEmailAddresses: arr(LEAF),
  quotedFileContent: obj(leaves('mimeType value')),
  replies: arr(REPLY),
});

export const COMMENT_LIST = obj({ ...leaves('kind nextPageToken'), comments: arr(COMMENT) });

export const REVISION = obj({
  ...leaves('id keepForever kind md5Checksum mimeType modifiedTime originalFilename publishAuto published publishedLink publishedOutsideDomain size'),
  exportLinks: MAP,
  lastModifyingUser: USER,
});

export const REVISION_LIST = obj({ ...leaves('kind nextPageToken'), revisions: arr(REVISION) });

/** teamDrive (deprecated) mirrors drive; its inner fields are accepted as a map. */
export const CHANGE = obj({
  ...leaves('changeType driveId fileId kind removed teamDriveId time type'),
  drive: DRIVE,
  file: FILE,
  teamDrive: MAP,
});

export const CHANGE_LIST = obj({ ...leaves('kind newStartPageToken nextPageToken'), changes: arr(CHANGE) });

export const START_PAGE_TOKEN = obj(leaves('kind startPageToken'));

export const ABOUT = obj({
  ...leaves('appInstalled canCreateDrives canCreateTeamDrives kind maxUploadSize'),
  driveThemes: arr(obj(leaves('backgroundImageLink colorRgb id'))),
  teamDriveThemes: arr(obj(leaves('backgroundImageLink colorRgb id'))),
  exportFormats: MAP,
  importFormats: MAP,
  maxImportSizes: MAP,
  folderColorPalette: arr(LEAF),
  storageQuota: obj(leaves('limit usage usageInDrive usageInDriveTrash')),
  user: USER,
});
