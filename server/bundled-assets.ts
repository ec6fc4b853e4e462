import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** One compiled file of a page the server serves, under its content hash (so it can be cached for good). */
export interface BundledAsset {
  type: string;
  body: Buffer;
}

/** One entry (a script, or a style sheet) bundled and minified into a single file by esbuild. */
export function bundleEntry(dir: URL, entry: string): Buffer {
  const [output] = buildSync({
    entryPoints: [fileURLToPath(new URL(entry, dir))],
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    ...(entry.endsWith('.ts') ? { format: 'esm', target: 'es2022' } : {}),
  }).outputFiles;
  return Buffer.from(output!.contents);
}

/** A file name carrying a digest of its content, so a changed file is a new address. */
export function hashedName(name: string, extension: string, body: Buffer): string {
  return `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`;
}
