/**
 * Loads every Airbyte declarative manifest (`*.yaml`) of a directory as Plugboard loads it, and prints
 * how many load and, for the others, which components stop them (type, manifests, occurrences, how
 * many manifests it alone stops), then each blocked manifest's first problems. The last line is the
 * summary as JSON: `manifest-report {"total":…,"loaded":…,"blocked":…,"loadedPercent":…,"blockers":{…}}`.
 *
 *   npm run manifest:report -- <dir> [--problems <n>]
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport, type ManifestFile, reportOnManifests } from '../core/manifests/manifest-report.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { problems: { type: 'string' } } });
if (positionals.length !== 1) {
  console.error('usage: npm run manifest:report -- <directory of *.yaml manifests> [--problems <per manifest, default 3>]');
  process.exit(2);
}
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
const names = (await readdir(dir)).filter((name) => name.endsWith('.yaml')).sort();
const files: ManifestFile[] = await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') })));
console.log(formatReport(reportOnManifests(files), { problemsPerManifest: values.problems === undefined ? 3 : Number(values.problems) }));
