import { DriveError, fileNotFound, resourceNotFound } from '../errors.ts';
import { PERMISSION, PERMISSION_LIST } from '../field-schema.ts';
import { decodePageToken, fingerprint, pageOf } from '../page-token.ts';
import type { PermissionRecord } from '../types.ts';
import { permissionToWire } from '../wire.ts';
import { defaults, json, pathParam, selectionFor, type FieldsPolicy, type Handler, type HandlerContext } from './context.ts';

/**
 * permissions.list / permissions.get on a file or a shared drive (fileId may be a drive id).
 * Shared drives and their items need supportsAllDrives=true, else Drive answers "File not found".
 * Someone who only reads or comments on a file shared with them cannot list its permissions
 * (403 insufficientFilePermissions).
 */

const GET_POLICY: FieldsPolicy = { shape: PERMISSION, defaults: defaults('kind,id,type,role', PERMISSION) };
const LIST_POLICY: FieldsPolicy = { shape: PERMISSION_LIST, defaults: defaults('kind,nextPageToken,permissions(kind,id,type,role)', PERMISSION_LIST) };

interface Target {
  permissions: readonly PermissionRecord[];
  context: { sharedDriveItem: boolean; driveItself: boolean };
}

function targetOf(ctx: HandlerContext): Target {
  const { params, store } = ctx;
  const fileId = pathParam(ctx, 'fileId');
  const supportsAll = params.supportsAllDrives();
  params.bool('useDomainAdminAccess');
  const drive = store.drive(fileId);
  if (drive) {
    if (!supportsAll) throw fileNotFound(fileId);
    return { permissions: store.permissionsOf(drive.id), context: { sharedDriveItem: false, driveItself: true } };
  }
  const file = store.visibleFile(fileId, supportsAll);
  if (!file) throw fileNotFound(fileId);
  const role = store.myRole(file);
  if (!file.driveId && (role === 'reader' || role === 'commenter')) {
    throw new DriveError(403, 'insufficientFilePermissions', 'The user does not have sufficient permissions for this file.', {
      location: 'fileId',
      locationType: 'parameter',
    });
  }
  return { permissions: store.permissionsOf(file.id), context: { sharedDriveItem: file.driveId !== undefined, driveItself: false } };
}

export const permissionsList: Handler = (ctx) => {
  const sel = selectionFor(ctx, LIST_POLICY);
  const pageSize = ctx.params.pageSize(100, 100);
  const target = targetOf(ctx);
  const print = fingerprint(['permissions', pathParam(ctx, 'fileId')]);
  const offset = decodePageToken(ctx.params.str('pageToken'), print);
  const { page, nextPageToken } = pageOf(target.permissions, offset, pageSize, print);
  const body: Record<string, unknown> = { kind: 'drive#permissionList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.permissions = page.map((p) => permissionToWire(p, target.context));
  return json(body, sel);
};

export const permissionsGet: Handler = (ctx) => {
  const sel = selectionFor(ctx, GET_POLICY);
  const target = targetOf(ctx);
  const permissionId = pathParam(ctx, 'permissionId');
  const permission = target.permissions.find((p) => p.id === permissionId);
  if (!permission) throw resourceNotFound('Permission', permissionId, 'permissionId');
  return json(permissionToWire(permission, target.context), sel);
};
