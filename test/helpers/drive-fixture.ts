import { createRuntime, type DownloadResult } from '../../index.ts';
import { DriveSandbox } from '../../connectors/file-storage/sandbox/index.ts';

export const DRIVE_TOKEN = 'ya29.test-secret-drive';

/** A Drive sandbox plus an in-process file-storage connector pointed at it. */
export async function startDriveFixture(options: { files?: number; drives?: number; largeFileBytes?: number } = {}) {
  const sandbox = await DriveSandbox.start({ token: DRIVE_TOKEN, ...options });
  const runtime = await createRuntime();
  const drive = runtime.connector('file-storage', { credentials: { access_token: DRIVE_TOKEN }, base_url: sandbox.url });
  return { sandbox, runtime, drive, plugin: runtime.plugin('file-storage') };
}

/** Reads a whole download into memory; for tests of small files only. */
export async function collect(download: DownloadResult): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of download.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
