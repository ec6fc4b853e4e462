import type { UpstreamCall, UpstreamClient } from '../../../core/sdk/index.ts';

/** The metadata call that names a file: files.get selecting only `name`. */
const FILE_NAME_CALL: UpstreamCall = { method: 'GET', path: '/drive/v3/files/{fileId}', defaults: { fields: 'name' } };

/**
 * A file's name, for a download: Drive's content responses (alt=media, export) carry no
 * Content-Disposition, so the name comes from the file's metadata. Null when Drive gives none.
 */
export async function driveFileName(upstream: UpstreamClient, params: { fileId: string; supportsAllDrives?: boolean }): Promise<string | null> {
  const body = await upstream.requestJson(FILE_NAME_CALL, params);
  const name = typeof body === 'object' && body !== null && 'name' in body ? body.name : undefined;
  return typeof name === 'string' ? name : null;
}
