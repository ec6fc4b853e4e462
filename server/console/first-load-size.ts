import { gzipSync } from 'node:zlib';
import { consoleAssets } from './console-assets.ts';

/** What the console's first page load fetches (its HTML, script and style sheet), in bytes, raw and gzipped. */
export function consoleFirstLoadSize(): { files: Array<{ name: string; bytes: number; gzip: number }>; gzip: number } {
  const assets = consoleAssets();
  const files = [['console (HTML)', Buffer.from(assets.page)] as const, ...[...assets.files].map(([name, asset]) => [name, asset.body] as const)].map(
    ([name, body]) => ({ name, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }),
  );
  return { files, gzip: files.reduce((sum, file) => sum + file.gzip, 0) };
}
