import type { UpstreamErrorSettings } from '../../core/sdk/index.ts';

/**
 * Drive answers `{"error": {"code", "message", "errors": [{"reason"}]}}`. The reason is the stable
 * code; reasons that are the caller's fault keep their meaning, a refused token or a Drive failure is
 * a 502 (core's default for upstream 401/403/5xx). Drive rate-limits with 429 or with a 403 whose
 * reason says so: core retries both alike.
 */
export const driveErrors: UpstreamErrorSettings = {
  codePath: 'error.errors.0.reason',
  messagePath: 'error.message',
  statusByCode: {
    notFound: 404,
    fileNotDownloadable: 400,
    fileNotExportable: 400,
    exportSizeLimitExceeded: 400,
    badRequest: 400,
    invalid: 400,
    invalidParameter: 400,
    required: 400,
    requestedRangeNotSatisfiable: 416,
    insufficientFilePermissions: 403,
    cannotDownloadAbusiveFile: 403,
    authError: 502,
    backendError: 502,
  },
  rateLimitCodes: ['userRateLimitExceeded', 'rateLimitExceeded'],
  detailByCode: {
    fileNotDownloadable:
      'This is a Google Docs editors file (document, spreadsheet, presentation or drawing): it has no binary content to download. Use files_export.download with a target mimeType instead.',
    exportSizeLimitExceeded: 'The exported file would exceed the 10 MB export limit, so it cannot be exported through files_export.download.',
    fileNotExportable: 'Only Google Docs editors files can be exported; download other files with files.download (alt=media).',
  },
};
