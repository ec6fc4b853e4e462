import { bufferSource } from '../content.ts';
import { DriveError, fileNotFound, requiredParameter } from '../errors.ts';
import { exportFormatsOf } from '../export.ts';
import { isEditorType } from '../mime.ts';
import { pathParam, type Handler } from './context.ts';

/**
 * files.export: Docs editor files only (403 fileNotExportable otherwise), to one of the formats
 * Drive offers for the type (400 badRequest otherwise), at most 10 MB of output (403
 * exportSizeLimitExceeded). The method has no supportsAllDrives parameter: shared-drive items
 * export like any other. `alt=media`, which client libraries add, is accepted and ignored.
 */

export const filesExport: Handler = (ctx) => {
  const { params, store } = ctx;
  const target = params.str('mimeType');
  if (target === undefined) throw requiredParameter('mimeType');
  const fileId = pathParam(ctx, 'fileId');
  const file = store.file(fileId);
  if (!file) throw fileNotFound(fileId);
  if (!isEditorType(file.mimeType)) {
    throw new DriveError(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
  }
  const offered = exportFormatsOf(file.mimeType).some((f) => f.mimeType === target);
  const result = offered ? store.exports.get(file, target) : undefined;
  if (!result) {
    throw new DriveError(400, 'badRequest', 'The requested conversion is not supported.');
  }
  if ('tooLarge' in result) {
    throw new DriveError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
  }
  return { kind: 'media', source: bufferSource(result.body), mimeType: target };
};
